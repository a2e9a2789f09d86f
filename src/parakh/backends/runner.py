"""Run many requests through a backend with a response cache, resumably.

Each finished item is appended to a progress file at once (written and flushed, so a crash or
`kill -9` of the process loses at most the items in flight; fsynced at least every
`FSYNC_EVERY_S` seconds and at the end, for machine crashes). A re-run keeps the rows whose
request is unchanged and that succeeded, and redoes the rest: items that were in flight, items
that failed, and items whose request changed since (another prompt, model or sampling).
The progress file is created with its first row: a backend that refuses to start (an unset
API key, say) leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncGenerator, Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tqdm import tqdm

try:
    import uvloop
except ImportError:  # Windows, which uvloop does not support
    uvloop = None  # type: ignore[assignment]

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.backends.cache import ResponseCache, request_hash
from parakh.hashing import canonical_json
from parakh.io import dumps, jsonl_lines

FSYNC_EVERY_S = 0.5
_KEY, _HASH, _OK = "_key", "_hash", "_ok"


def read_progress(path: Path) -> dict[str, dict[str, Any]]:
    """Rows by key, the last one per key winning; a torn last line (the crash happened while
    it was written) is ignored."""
    done: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return done
    for line in jsonl_lines(path.read_text(encoding="utf-8")):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and _KEY in row:
            done[row[_KEY]] = row
    return done


def _reusable(row: dict[str, Any] | None, expected_hash: str) -> bool:
    return row is not None and row.get(_OK, True) and row.get(_HASH, expected_hash) == expected_hash


class _ProgressLog:
    """Append-only JSONL of finished rows, opened at the first row: flushed per row, fsynced at
    close and at least every 0.5 s meanwhile, in a worker thread (an fsync can take
    milliseconds, which on the event loop would hold up every request in flight)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._fd: int | None = None
        self._synced = time.monotonic()
        self._fsyncs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="progress-fsync")
        self._syncing: Future[None] | None = None

    def append(self, row: dict[str, Any]) -> None:
        if self._fd is None:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self._path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(self._fd, (dumps(row) + "\n").encode("utf-8"))  # one write: no buffer to flush
        if time.monotonic() - self._synced >= FSYNC_EVERY_S and (
            self._syncing is None or self._syncing.done()
        ):
            self._syncing = self._fsyncs.submit(os.fsync, self._fd)
            self._synced = time.monotonic()

    def close(self) -> None:
        self._fsyncs.shutdown()
        if self._fd is not None:
            os.fsync(self._fd)
            os.close(self._fd)


def run_requests(
    backend: Backend,
    requests: Sequence[ChatRequest],
    cache: ResponseCache | None,
    progress_path: Path,
    to_row: Callable[[ChatRequest, Completion, str], dict],
    description: str = "",
    show_progress: bool = True,
) -> dict[str, dict[str, Any]]:
    """Return {request key: row} for every request, each completed exactly once.

    A row for a failed request is still returned (it says why); it is redone on the next run.
    """
    keys = [r.key for r in requests]
    if len(set(keys)) != len(keys):
        raise ValueError("request keys must be unique")
    identity = canonical_json(backend.identity())
    hashes = {r.key: request_hash(identity, r) for r in requests}
    previous = read_progress(progress_path)
    done = {k: row for k, row in previous.items() if k in hashes and _reusable(row, hashes[k])}
    bar = tqdm(
        total=len(requests),
        initial=len(done),
        desc=description,
        unit="item",
        disable=not show_progress,
        dynamic_ncols=True,
        smoothing=0.1,
    )
    log = _ProgressLog(progress_path)

    def record(request: ChatRequest, completion: Completion) -> None:
        row = to_row(request, completion, hashes[request.key])
        log.append({**row, _KEY: request.key, _HASH: hashes[request.key], _OK: completion.ok})
        done[request.key] = row
        bar.update(1)

    def answered(request: ChatRequest, completion: Completion) -> None:
        if cache is not None:
            cache.put(hashes[request.key], completion)
        record(request, completion)

    try:
        todo = [r for r in requests if r.key not in done]
        hits = cache.get_many([hashes[r.key] for r in todo]) if cache is not None else {}
        for request in todo:
            if hashes[request.key] in hits:
                record(request, hits[hashes[request.key]])
        generate_all(backend, [r for r in todo if hashes[r.key] not in hits], answered)
    finally:
        log.close()
        bar.close()
        if cache is not None:
            cache.flush()
    return {k: {c: v for c, v in done[k].items() if c not in (_KEY, _HASH, _OK)} for k in keys}


def generate_all(
    backend: Backend,
    requests: Sequence[ChatRequest],
    take: Callable[[ChatRequest, Completion], None] | None = None,
) -> list[tuple[ChatRequest, Completion]]:
    """Every request with its completion, in the order they finished: the one place where
    synchronous callers meet the async backends, on uvloop's event loop where it is installed
    (not on Windows): its C loop costs a fraction of asyncio's own CPU a request. Each result
    goes to `take` as it arrives, before the backend starts another request."""

    async def drain() -> list[tuple[ChatRequest, Completion]]:
        results = []
        answers = backend.generate(requests)
        try:
            async for request, completion in answers:
                if take is not None:
                    take(request, completion)
                results.append((request, completion))
        finally:  # on an error in `take` too: the backend cancels what is in flight
            if isinstance(answers, AsyncGenerator):
                await answers.aclose()
        return results

    return (asyncio.run if uvloop is None else uvloop.run)(drain())
