"""One response cache file, many writer processes at once (parallel shards or sweep jobs on one
host): every entry lands, and no process sees "database is locked"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parakh.backends.base import Completion
from parakh.backends.cache import ResponseCache
from tests.support.together import run_together

PROCESSES = 4
WRITES = 500


def _key(worker: int, i: int) -> str:
    return f"w{worker}-{i:04d}"


def _writer(path: str, worker: int, start: Any) -> None:
    """Open the cache only after the barrier, so that creating the file and switching it to
    WAL race too; write, reading back now and then as generation does between writes."""
    start.wait(timeout=60)
    cache = ResponseCache(path)
    for i in range(WRITES):
        key = _key(worker, i)
        cache.put(key, Completion(text=f"answer {key}", prompt_tokens=i, completion_tokens=1))
        if i % 10 == 0:
            hit = cache.get(_key((worker + 1) % PROCESSES, i))
            assert hit is None or hit.text.startswith("answer ")
    cache.close()


def test_four_processes_writing_500_entries_each_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "state" / "cache.sqlite"
    run_together(_writer, [(str(path), w) for w in range(PROCESSES)])

    cache = ResponseCache(path)
    try:
        assert len(cache) == PROCESSES * WRITES
        for w in range(PROCESSES):
            for i in range(WRITES):
                hit = cache.get(_key(w, i))
                assert hit is not None and hit.text == f"answer {_key(w, i)}"
                assert hit.prompt_tokens == i
    finally:
        cache.close()


ROUNDS = 20
ROUND_WRITES = 25


def _opener(folder: str, worker: int, start: Any) -> None:
    """In each round, open a fresh cache file together with the others and write to it."""
    for round_ in range(ROUNDS):
        start.wait(timeout=60)
        cache = ResponseCache(Path(folder) / f"round{round_}.sqlite")
        for i in range(ROUND_WRITES):
            cache.put(_key(worker, i), Completion(text="x"))
        cache.close()


def test_processes_opening_a_fresh_cache_file_together_all_get_in(tmp_path: Path) -> None:
    """SQLite fails at once, without waiting, when processes race to switch a new file to WAL;
    the cache retries that step (without the retry, this test failed in 5 runs of 6)."""
    run_together(_opener, [(str(tmp_path), w) for w in range(PROCESSES)])
    for round_ in range(ROUNDS):
        cache = ResponseCache(tmp_path / f"round{round_}.sqlite")
        assert len(cache) == PROCESSES * ROUND_WRITES
        cache.close()
