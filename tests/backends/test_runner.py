"""run_requests: every item exactly once, failures redone on resume, cache hits call nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.backends.cache import ResponseCache
from parakh.backends.runner import read_progress, run_requests
from parakh.backends.scripted import ScriptedBackend
from parakh.config.model import Sampling, ScriptedModel


def _requests(n: int, temperature: float = 0.0) -> list[ChatRequest]:
    return [
        ChatRequest(
            key=f"q{i}",
            messages=(("user", f"question {i}"),),
            sampling=Sampling(temperature=temperature),
        )
        for i in range(n)
    ]


def _row(request: ChatRequest, completion: Completion, request_hash: str) -> dict:
    return {"text": completion.text, "error": completion.error}


class FlakyBackend(ScriptedBackend):
    """Fails the keys listed in `failing` (a deterministic fake, not a random one)."""

    def __init__(self, failing: set[str]) -> None:
        super().__init__(ScriptedModel(name="flaky", backend="scripted", default_response="ok"))
        self.failing = failing

    def complete(self, request: ChatRequest) -> Completion:
        if request.key in self.failing:
            self.calls += 1
            return Completion(text=None, error="HTTP 500: boom")
        return super().complete(request)


def test_failed_items_are_rows_now_and_redone_on_the_next_run(tmp_path: Path) -> None:
    progress = tmp_path / "progress.jsonl"
    first = run_requests(FlakyBackend({"q1", "q3"}), _requests(5), None, progress, _row)
    assert len(first) == 5
    assert first["q1"] == {"text": None, "error": "HTTP 500: boom"}
    second_backend = FlakyBackend(set())
    second = run_requests(second_backend, _requests(5), None, progress, _row)
    assert second_backend.calls == 2  # only the two failures were redone
    assert all(row["text"] == "ok" for row in second.values())


def test_a_changed_request_is_not_served_from_stale_progress(tmp_path: Path) -> None:
    progress = tmp_path / "progress.jsonl"
    backend: Backend = ScriptedBackend(
        ScriptedModel(name="s", backend="scripted", default_response="ok")
    )
    run_requests(backend, _requests(3), None, progress, _row)
    again = ScriptedBackend(ScriptedModel(name="s", backend="scripted", default_response="ok"))
    run_requests(again, _requests(3, temperature=0.7), None, progress, _row)
    assert again.calls == 3


def test_a_torn_last_line_is_ignored_and_that_item_redone(tmp_path: Path) -> None:
    progress = tmp_path / "progress.jsonl"
    backend = ScriptedBackend(ScriptedModel(name="s", backend="scripted", default_response="ok"))
    run_requests(backend, _requests(3), None, progress, _row)
    lines = progress.read_text(encoding="utf-8").splitlines()
    progress.write_text("\n".join(lines[:2]) + "\n" + lines[2][: len(lines[2]) // 2])
    assert len(read_progress(progress)) == 2
    again = ScriptedBackend(ScriptedModel(name="s", backend="scripted", default_response="ok"))
    rows = run_requests(again, _requests(3), None, progress, _row)
    assert again.calls == 1 and len(rows) == 3


def test_a_second_run_with_the_cache_makes_no_backend_call(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite")
    first = ScriptedBackend(ScriptedModel(name="s", backend="scripted", default_response="ok"))
    run_requests(first, _requests(4), cache, tmp_path / "p1.jsonl", _row)
    second = ScriptedBackend(ScriptedModel(name="s", backend="scripted", default_response="ok"))
    rows = run_requests(second, _requests(4), cache, tmp_path / "p2.jsonl", _row)
    assert first.calls == 4 and second.calls == 0 and len(rows) == 4
    logged = [json.loads(line) for line in (tmp_path / "p2.jsonl").read_text().splitlines()]
    assert {row["_key"] for row in logged} == {"q0", "q1", "q2", "q3"}


def test_errors_are_not_cached(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite")
    run_requests(FlakyBackend({"q0"}), _requests(2), cache, tmp_path / "p1.jsonl", _row)
    assert len(cache) == 1


class RefusingBackend(ScriptedBackend):
    """Refuses to start, as the OpenAI backend does when its API key is missing."""

    async def generate(self, requests):  # type: ignore[no-untyped-def]
        raise RuntimeError("no key")
        yield  # an async generator, like the real one: the error comes at the first item


def test_a_backend_that_refuses_to_start_leaves_no_progress_file(tmp_path: Path) -> None:
    progress = tmp_path / "generate" / ".m.progress.jsonl"
    backend = RefusingBackend(ScriptedModel(name="m", backend="scripted", default_response="x"))
    with pytest.raises(RuntimeError, match="no key"):
        run_requests(backend, _requests(3), None, progress, _row)
    assert not progress.parent.exists()
