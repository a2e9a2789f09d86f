"""Why a model stopped travels with its answer: from each backend's reply into `Completion`,
through the response cache (so a cached re-run writes what the first run wrote), into rows."""

from __future__ import annotations

from pathlib import Path

from parakh.backends.base import Completion
from parakh.backends.cache import ResponseCache
from parakh.backends.openai_compat import parse_response
from parakh.backends.scripted import ScriptedBackend
from parakh.config.model import ScriptedModel
from parakh.schema import Generation


def _chat_body(finish_reason: object) -> dict:
    return {
        "choices": [
            {"message": {"content": "Rest for"}, "finish_reason": finish_reason},
        ],
        "usage": {"prompt_tokens": 12, "completion_tokens": 2},
    }


def test_openai_bodies_give_their_finish_reason_or_none() -> None:
    assert parse_response(_chat_body("length"), chat=True) == ("Rest for", "length", (12, 2))
    assert parse_response(_chat_body(None), chat=True)[1] is None
    plain = {"choices": [{"text": "Rest", "finish_reason": "stop"}]}
    assert parse_response(plain, chat=False) == ("Rest", "stop", (0, 0))
    no_field = {"choices": [{"text": "Rest"}]}
    assert parse_response(no_field, chat=False)[1] is None


def test_the_scripted_backend_says_it_stopped() -> None:
    from parakh.backends.base import ChatRequest
    from parakh.config.model import Sampling

    backend = ScriptedBackend(ScriptedModel(name="s", backend="scripted", default_response="x"))
    request = ChatRequest(key="k", messages=(("user", "q"),), sampling=Sampling())
    assert backend.complete(request).finish_reason == "stop"


def test_the_cache_keeps_the_finish_reason(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite")
    cache.put("cut", Completion(text="Rest for", finish_reason="length", completion_tokens=40))
    cache.put("unknown", Completion(text="Rest."))
    hit = cache.get("cut")
    assert hit is not None and hit.finish_reason == "length" and hit.extra == {"cached": True}
    unknown = cache.get("unknown")
    assert unknown is not None and unknown.finish_reason is None
    cache.close()


def test_generation_rows_keep_the_finish_reason() -> None:
    cut = Generation(question_id="q", model="m", status="ok", response="x", finish_reason="length")
    assert Generation.model_validate(cut.model_dump(mode="json")).finish_reason == "length"
    unknown = Generation.model_validate({"question_id": "q", "model": "m", "status": "ok"})
    assert unknown.model_dump(mode="json")["finish_reason"] is None
