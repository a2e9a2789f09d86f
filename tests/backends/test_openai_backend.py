"""OpenAIBackend against the fault-injecting server on loopback: retries, Retry-After, timeouts,
malformed bodies, final error rows, bounded concurrency, key redaction."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

import pytest

from parakh.backends.base import ChatRequest, Completion
from parakh.backends.openai_compat import OpenAIBackend
from parakh.backends.openai_http import retry_after_seconds
from parakh.backends.request_builder import chat_body
from parakh.backends.runner import generate_all
from parakh.config.model import OpenAIModel, Sampling
from tests.support.fault_server import answer_text

from .conftest import complete_one, server_stats

pytestmark = pytest.mark.server


@pytest.fixture(params=["http", "sdk"])
def make_model(request: pytest.FixtureRequest) -> Callable[..., OpenAIModel]:
    """Every test runs on both transports: Parakh's own HTTP client, and the openai SDK's client."""
    return functools.partial(_model, transport=request.param)


def _model(base_url: str, **overrides: object) -> OpenAIModel:
    settings = {
        "name": "fault",
        "backend": "openai",
        "model_id": "fault-model",
        "base_url": base_url,
        "concurrency": 4,
        "timeout_s": 5.0,
        "max_retries": 3,
        "backoff_s": 0.01,
        "max_backoff_s": 1.0,
        **overrides,
    }
    return OpenAIModel.model_validate(settings)


def _requests(n: int, prefix: str = "q") -> list[ChatRequest]:
    return [
        ChatRequest(
            key=f"{prefix}{i}",
            messages=(("system", "Answer briefly."), ("user", f"question {i}")),
            sampling=Sampling(max_tokens=16),
        )
        for i in range(n)
    ]


def test_answers_every_request_deterministically_within_the_concurrency_bound(
    make_model,
    fault_server,
) -> None:
    server = fault_server("--latency", "0.05")
    backend = OpenAIBackend(make_model(server.base_url, concurrency=3))
    requests = _requests(12)
    results = dict((r.key, c) for r, c in generate_all(backend, requests))
    assert sorted(results) == sorted(r.key for r in requests)
    for request in requests:
        completion = results[request.key]
        assert completion.ok and completion.attempts == 1
        assert completion.text == answer_text(chat_body(request, "fault-model"))
        assert completion.prompt_tokens > 0 and completion.completion_tokens == 2
    stats = server_stats(server)
    assert stats["requests"] == 12 and stats["max_in_flight"] <= 3


def test_429_is_retried_after_the_wait_the_server_asks_for(make_model, fault_server) -> None:
    server = fault_server("--fail-rate", "1", "--faults", "429", "--retry-after", "0.3")
    backend = OpenAIBackend(make_model(server.base_url, max_retries=2))
    start = time.perf_counter()
    completion = complete_one(backend, _requests(1)[0])
    elapsed = time.perf_counter() - start
    assert not completion.ok and completion.text is None
    assert completion.attempts == 3
    assert completion.error is not None
    assert completion.error.startswith("gave up after 3 attempts; last: HTTP 429")
    assert elapsed >= 2 * 0.3  # two waits of Retry-After, not the 0.01 s backoff
    assert server_stats(server)["429"] == 3


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        ("500", "HTTP 500"),
        ("timeout", "timeout: no answer within 0.5 s"),
        ("garbage", "malformed response"),
    ],
)
def test_each_fault_kind_ends_as_an_error_row_with_its_reason(
    make_model, fault_server, fault, reason
) -> None:
    server = fault_server("--fail-rate", "1", "--faults", fault, "--timeout-sleep", "3")
    backend = OpenAIBackend(make_model(server.base_url, max_retries=1, timeout_s=0.5))
    completions = [c for _, c in generate_all(backend, _requests(2))]
    assert len(completions) == 2
    for completion in completions:
        assert not completion.ok and completion.attempts == 2
        assert reason in (completion.error or "")


def test_transient_faults_are_retried_until_every_item_succeeds(make_model, fault_server) -> None:
    server = fault_server(
        "--fail-rate", "0.4", "--faults", "429,500,garbage", "--retry-after", "0.01"
    )
    backend = OpenAIBackend(make_model(server.base_url, max_retries=12, concurrency=8))
    results = generate_all(backend, _requests(40))
    assert len(results) == 40 and all(c.ok for _, c in results)
    assert sum(c.attempts for _, c in results) == server_stats(server)["requests"] > 40


def test_client_errors_are_final_at_once_and_the_key_is_redacted(
    make_model, fault_server, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-test-0123456789abcdef"
    monkeypatch.setenv("PARAKH_TEST_KEY", secret)
    server = fault_server("--require-key", "another-key", "--echo-auth-in-errors")
    backend = OpenAIBackend(make_model(server.base_url, api_key_env="PARAKH_TEST_KEY"))
    completion = complete_one(backend, _requests(1)[0])
    assert not completion.ok and completion.attempts == 1  # 401 is not retried
    assert "HTTP 401" in (completion.error or "")
    assert "[redacted]" in (completion.error or "") and secret not in (completion.error or "")


def test_base_model_prompts_go_to_the_completions_endpoint(make_model, fault_server) -> None:
    server = fault_server()
    backend = OpenAIBackend(make_model(server.base_url))
    request = ChatRequest(
        key="b", messages=(("user", "q"),), sampling=Sampling(), prompt="Question: q\nAnswer:"
    )
    completion = complete_one(backend, request)
    assert completion.ok and completion.text and completion.text.startswith("answer ")


def test_retry_after_forms() -> None:
    assert retry_after_seconds({"retry-after": "2"}) == 2.0
    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None


def test_an_error_in_the_consumer_cancels_what_is_in_flight(make_model, fault_server) -> None:
    server = fault_server("--latency", "0.3")
    backend = OpenAIBackend(make_model(server.base_url, concurrency=2))
    taken = []

    def take(request: ChatRequest, completion: Completion) -> None:
        taken.append(completion)
        raise OSError("disk full")  # what a consumer failing to record a row does

    start = time.perf_counter()
    with pytest.raises(OSError, match="disk full"):
        generate_all(backend, _requests(20), take)
    assert len(taken) == 1 and taken[0].ok and time.perf_counter() - start < 5
    time.sleep(0.5)
    assert server_stats(server)["requests"] <= 4
