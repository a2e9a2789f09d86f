"""The response cache writes its puts in batches (one transaction per WRITE_EVERY_ROWS rows or
WRITE_EVERY_S seconds, and at close), and reads back a put at once, written or not."""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.backends.base import ChatRequest, Completion
from parakh.backends.cache import WRITE_EVERY_ROWS, ResponseCache
from parakh.backends.runner import run_requests
from parakh.backends.scripted import ScriptedBackend
from parakh.config.model import Sampling, ScriptedModel


def test_puts_are_read_back_at_once_and_written_a_batch_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("parakh.backends.cache.WRITE_EVERY_S", 3600.0)
    path = tmp_path / "cache.sqlite"
    cache, other_process = ResponseCache(path), ResponseCache(path)
    for i in range(WRITE_EVERY_ROWS - 1):
        cache.put(f"k{i}", Completion(text=f"answer {i}", finish_reason="stop"))
    held = cache.get("k0")
    assert held is not None and held.text == "answer 0" and held.extra == {"cached": True}
    assert other_process.get("k0") is None  # no commit per response
    cache.put("full", Completion(text="the batch is full"))
    assert other_process.get("k0") is not None and other_process.get("full") is not None
    cache.put("last", Completion(text="held until close"))
    cache.close()
    last = other_process.get("last")
    assert last is not None and last.text == "held until close"
    assert len(other_process) == WRITE_EVERY_ROWS + 1
    other_process.close()


def test_a_run_writes_what_it_cached_before_it_returns(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    cache = ResponseCache(path)
    backend = ScriptedBackend(ScriptedModel(name="m", backend="scripted", default_response="ok"))
    requests = [
        ChatRequest(key=f"q{i}", messages=(("user", f"question {i}"),), sampling=Sampling())
        for i in range(3)
    ]
    run_requests(backend, requests, cache, tmp_path / "progress.jsonl", lambda r, c, h: {})
    other_process = ResponseCache(path)
    assert len(other_process) == 3  # written, though the run's cache is still open
    other_process.close()
    cache.close()
