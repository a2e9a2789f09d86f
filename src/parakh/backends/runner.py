"""Run many requests through a backend with a response cache, resumably.

Completed items are appended to a progress file as they finish (flushed and fsynced), so a
crash or `kill -9` loses at most the items that were in flight; a re-run skips the done ones.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.backends.cache import ResponseCache, request_hash
from parakh.io import dumps


def read_progress(path: Path) -> dict[str, dict[str, Any]]:
    """Done rows by key; a torn last line (the crash happened mid-write) is ignored."""
    done: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        done[row["_key"]] = row
    return done


def run_requests(
    backend: Backend,
    requests: Sequence[ChatRequest],
    cache: ResponseCache | None,
    progress_path: Path,
    to_row: Callable[[ChatRequest, Completion, str], dict],
    description: str = "",
    show_progress: bool = True,
) -> dict[str, dict[str, Any]]:
    """Return {request key: row} for every request, each completed exactly once."""
    done = read_progress(progress_path)
    identity = backend.identity()
    todo = [r for r in requests if r.key not in done]
    progress_path.parent.mkdir(parents=True, exist_ok=True)
    bar = tqdm(
        total=len(requests),
        initial=len(requests) - len(todo),
        desc=description,
        unit="item",
        disable=not show_progress,
        dynamic_ncols=True,
    )
    hashes = {r.key: request_hash(identity, r) for r in todo}

    def uncached() -> Iterator[ChatRequest]:
        for r in todo:
            if cache is None or cache.get(hashes[r.key]) is None:
                yield r

    with progress_path.open("a", encoding="utf-8") as log:

        def record(request: ChatRequest, completion: Completion) -> None:
            row = to_row(request, completion, hashes[request.key])
            row["_key"] = request.key
            log.write(dumps(row) + "\n")
            log.flush()
            os.fsync(log.fileno())
            done[request.key] = row
            bar.update(1)

        if cache is not None:
            for r in todo:
                hit = cache.get(hashes[r.key])
                if hit is not None:
                    record(r, hit)
        for request, completion in backend.complete_many(list(uncached())):
            if cache is not None:
                cache.put(hashes[request.key], completion)
            record(request, completion)
    bar.close()
    for row in done.values():
        row.pop("_key", None)
    return done
