"""SQLite response cache keyed by sha256 of everything that changes a model's output.

The key holds the request (messages, sampling params incl. seed, JSON schema) and the backend's
identity: every setting of the model config that can change an answer (`answer_settings`:
server URLs, revision or weights hash, sampling, `system_role`, `structured_output`, engine
settings), which together fix the body actually sent. It leaves out what each config class
declares answer-neutral (timeouts, retries, concurrency, prices); tests/backends/test_cache_key.py
walks every field. One file, outside the package, safe to delete.

Several processes on one host (parallel shards, sweep jobs) may share the file: see
`parakh.sqlite_store` for how it is opened, and what a damaged file gives.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from parakh.backends.base import ChatRequest, Completion
from parakh.hashing import sha256_obj
from parakh.sqlite_store import open_store, readable


def request_hash(identity: dict[str, Any], request: ChatRequest) -> str:
    return sha256_obj({"model": identity, "request": request.cache_payload()})


class ResponseCache:
    """get-or-compute store of successful completions; errors are never cached."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = open_store(
            self.path,
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, text TEXT NOT NULL, "
            "prompt_tokens INTEGER, completion_tokens INTEGER, latency_s REAL, created REAL)",
        )
        # WAL + NORMAL: a committed entry survives a process crash; only a power cut can lose
        # the last few, which are then simply recomputed. Saves an fsync per response.
        self._db.execute("PRAGMA synchronous=NORMAL")
        with readable(self.path):
            _add_finish_reason(self._db)

    def get(self, key: str) -> Completion | None:
        with readable(self.path):
            row = self._db.execute(
                "SELECT text, prompt_tokens, completion_tokens, latency_s, finish_reason "
                "FROM responses WHERE key=?",
                (key,),
            ).fetchone()
        if row is None:
            return None
        return Completion(
            text=row[0],
            prompt_tokens=row[1],
            completion_tokens=row[2],
            latency_s=row[3],
            finish_reason=row[4],
            extra={"cached": True},
        )

    def put(self, key: str, completion: Completion) -> None:
        """Store successful completions only: errors are retried on the next run."""
        if not completion.ok:
            return
        with readable(self.path):
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, text, prompt_tokens, completion_tokens, "
                "latency_s, created, finish_reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    completion.text,
                    completion.prompt_tokens,
                    completion.completion_tokens,
                    completion.latency_s,
                    time.time(),
                    completion.finish_reason,
                ),
            )

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        self._db.close()


def _add_finish_reason(db: sqlite3.Connection) -> None:
    """Files written before finish reasons were kept get the column; their entries read back
    with None (not known). Another process may add it first: that is not an error."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(responses)")}
    if "finish_reason" in columns:
        return
    try:
        db.execute("ALTER TABLE responses ADD COLUMN finish_reason TEXT")
    except sqlite3.OperationalError as e:
        if "duplicate column" not in str(e):
            raise
