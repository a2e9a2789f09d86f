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

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from parakh.backends.base import ChatRequest, Completion
from parakh.hashing import canonical_json, sha256_text
from parakh.sqlite_store import open_store, readable

# Puts are written in one transaction per this many rows or seconds, and at `flush`/`close`: a
# commit per response cost more CPU than the request. A crash loses only unwritten entries,
# which are recomputed; the run's progress file, not the cache, is its crash-safe record.
WRITE_EVERY_ROWS = 256
WRITE_EVERY_S = 0.5
_LOOKUP_CHUNK = 500  # keys a lookup binds (SQLite before 3.32 allows 999 variables)
_INSERT = (
    "INSERT OR REPLACE INTO responses (key, text, prompt_tokens, completion_tokens, latency_s, "
    "created, finish_reason) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def request_hash(identity: dict[str, Any] | str, request: ChatRequest) -> str:
    """sha256 of the canonical JSON of {"model": identity, "request": payload}; `identity` may
    come as its canonical JSON already, made once for a run's requests."""
    model = identity if isinstance(identity, str) else canonical_json(identity)
    return sha256_text(f'{{"model":{model},"request":{canonical_json(request.cache_payload())}}}')


class ResponseCache:
    """get-or-compute store of successful completions; errors are never cached."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = open_store(
            self.path,
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, text TEXT NOT NULL, "
            "prompt_tokens INTEGER, completion_tokens INTEGER, latency_s REAL, created REAL, "
            "finish_reason TEXT)",
        )
        # WAL + NORMAL: a committed entry survives a process crash; only a power cut can lose
        # the last few, which are then simply recomputed.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._unwritten: dict[str, tuple[Any, ...]] = {}
        self._written_at = time.monotonic()

    def get(self, key: str) -> Completion | None:
        return self.get_many([key]).get(key)

    def get_many(self, keys: Sequence[str]) -> dict[str, Completion]:
        """The entries held for `keys`, looked up a few hundred at a time."""
        rows: list[tuple[Any, ...]] = []
        for start in range(0, len(keys), _LOOKUP_CHUNK):
            chunk = keys[start : start + _LOOKUP_CHUNK]
            with readable(self.path):  # the columns of a held put, in its order
                rows += self._db.execute(
                    "SELECT key, text, prompt_tokens, completion_tokens, latency_s, created, "
                    f"finish_reason FROM responses WHERE key IN ({','.join('?' * len(chunk))})",
                    chunk,
                ).fetchall()
        rows += [self._unwritten[k] for k in keys if k in self._unwritten]  # newer: they win
        return {
            row[0]: Completion(
                text=row[1],
                prompt_tokens=row[2],
                completion_tokens=row[3],
                latency_s=row[4],
                finish_reason=row[6],
                extra={"cached": True},
            )
            for row in rows
        }

    def put(self, key: str, completion: Completion) -> None:
        """Store successful completions only: errors are retried on the next run."""
        if not completion.ok:
            return
        self._unwritten[key] = (
            key,
            completion.text,
            completion.prompt_tokens,
            completion.completion_tokens,
            completion.latency_s,
            time.time(),
            completion.finish_reason,
        )
        if (
            len(self._unwritten) >= WRITE_EVERY_ROWS
            or time.monotonic() - self._written_at >= WRITE_EVERY_S
        ):
            self.flush()

    def flush(self) -> None:
        """Write the puts held so far, in one transaction."""
        if self._unwritten:
            with readable(self.path), self._db:  # commits, or rolls back on an error
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(_INSERT, self._unwritten.values())
            self._unwritten.clear()
        self._written_at = time.monotonic()

    def __len__(self) -> int:
        self.flush()
        return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self._db.close()
