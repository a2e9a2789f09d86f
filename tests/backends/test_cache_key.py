"""The cache key holds everything that changes the output and nothing that does not."""

from __future__ import annotations

from parakh.backends.base import ChatRequest, make_backend
from parakh.backends.cache import request_hash
from parakh.config.schema import OpenAIModel, Sampling


def _request(**changes: object) -> ChatRequest:
    fields = {"key": "q1", "messages": (("user", "hi"),), "sampling": Sampling(), **changes}
    return ChatRequest(**fields)  # type: ignore[arg-type]


def _identity(**changes: object) -> dict:
    cfg = OpenAIModel.model_validate(
        {"name": "m", "backend": "openai", "model_id": "org/model", **changes}
    )
    return make_backend(cfg).identity()


def test_output_changing_fields_change_the_key() -> None:
    base = request_hash(_identity(), _request())
    assert request_hash(_identity(model_id="org/other"), _request()) != base
    assert request_hash(_identity(revision="abc123"), _request()) != base
    assert request_hash(_identity(), _request(messages=(("user", "hello"),))) != base
    assert request_hash(_identity(), _request(sampling=Sampling(seed=1))) != base
    assert request_hash(_identity(), _request(sampling=Sampling(temperature=0.5))) != base
    assert request_hash(_identity(), _request(prompt="Question: hi\nAnswer:")) != base
    assert request_hash(_identity(), _request(json_schema={"type": "object"})) != base


def test_timeouts_retries_concurrency_and_endpoint_do_not() -> None:
    base = request_hash(_identity(), _request())
    for change in (
        {"timeout_s": 5.0},
        {"max_retries": 0},
        {"concurrency": 64},
        {"base_url": "http://replica-2:8000/v1"},
        {"backoff_s": 2.0},
    ):
        assert request_hash(_identity(**change), _request()) == base, change
