"""SQLite response cache keyed by sha256 of everything that changes a model's output.

The key holds the backend identity (backend, model id, revision or weights hash) and the exact
request (messages, sampling params incl. seed, JSON schema); it leaves out timeouts, retries
and concurrency, which do not change the output. One file, outside the package, safe to delete.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from parakh.backends.base import ChatRequest, Completion
from parakh.hashing import sha256_obj


def request_hash(identity: dict[str, Any], request: ChatRequest) -> str:
    return sha256_obj({"model": identity, "request": request.cache_payload()})


class ResponseCache:
    """get-or-compute store of successful completions; errors are never cached."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=60.0, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a committed entry survives a process crash; only a power cut can lose
        # the last few, which are then simply recomputed. Saves an fsync per response.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=60000")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, text TEXT NOT NULL, "
            "prompt_tokens INTEGER, completion_tokens INTEGER, latency_s REAL, created REAL)"
        )

    def get(self, key: str) -> Completion | None:
        row = self._db.execute(
            "SELECT text, prompt_tokens, completion_tokens, latency_s FROM responses WHERE key=?",
            (key,),
        ).fetchone()
        if row is None:
            return None
        return Completion(
            text=row[0],
            prompt_tokens=row[1],
            completion_tokens=row[2],
            latency_s=row[3],
            extra={"cached": True},
        )

    def put(self, key: str, completion: Completion) -> None:
        """Store successful completions only: errors are retried on the next run."""
        if not completion.ok:
            return
        self._db.execute(
            "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?)",
            (
                key,
                completion.text,
                completion.prompt_tokens,
                completion.completion_tokens,
                completion.latency_s,
                time.time(),
            ),
        )

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        self._db.close()


def dumps_identity(identity: dict[str, Any]) -> str:
    return json.dumps(identity, sort_keys=True)
