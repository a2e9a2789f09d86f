"""A server that stalls past the client's timeout: the attempt is retried, not the run stopped.

The fault server decides each attempt's fault from (seed, request, attempt number), so a seed is
picked under which the one request stalls on its first attempt and is answered on its second.
The HTTP client raises `asyncio.TimeoutError`, which is the builtin TimeoutError from Python 3.11
but a class of its own on 3.10; the `as-on-3.10` case makes it one here too, so that a handler that
catches only the builtin fails this test on any Python.
"""

from __future__ import annotations

import asyncio

import pytest

from parakh.backends.base import ChatRequest
from parakh.backends.openai_compat import OpenAIBackend
from parakh.backends.request_builder import chat_body
from parakh.config.model import OpenAIModel, Sampling
from tests.support.fault_server import FaultSettings, FaultState, answer_text

from .conftest import complete_one, server_stats

pytestmark = pytest.mark.server

REQUEST = ChatRequest(
    key="q0",
    messages=(("system", "Answer briefly."), ("user", "question 0")),
    sampling=Sampling(max_tokens=16),
)


def _stall_then_answer_seed(body: dict[str, object]) -> int:
    """The first seed under which the server stalls this body's first attempt only."""
    for seed in range(1000):
        state = FaultState(FaultSettings(fail_rate=0.5, faults=["timeout"], seed=seed))
        if [state.decide(body), state.decide(body)] == ["timeout", None]:
            return seed
    raise AssertionError("no seed stalls the first attempt and answers the second")


class _TimeoutErrorOf310(Exception):
    """asyncio.TimeoutError as Python 3.10 has it: not the builtin TimeoutError."""


@pytest.mark.parametrize(
    ("transport", "as_on_310"),
    [("http", False), ("http", True), ("sdk", False)],
    ids=["http", "http-as-on-3.10", "sdk"],
)
def test_a_stalled_attempt_is_retried(  # type: ignore[no-untyped-def]
    fault_server, monkeypatch: pytest.MonkeyPatch, transport: str, as_on_310: bool
) -> None:
    if as_on_310:
        monkeypatch.setattr(asyncio, "TimeoutError", _TimeoutErrorOf310)
    body = chat_body(REQUEST, "fault-model")
    seed = _stall_then_answer_seed(body)
    server = fault_server(
        "--fail-rate", "0.5", "--faults", "timeout", "--timeout-sleep", "3", "--seed", str(seed)
    )
    model = OpenAIModel(
        name="fault",
        backend="openai",
        model_id="fault-model",
        base_url=server.base_url,
        transport=transport,
        timeout_s=0.5,
        max_retries=2,
        backoff_s=0.01,
    )
    completion = complete_one(OpenAIBackend(model), REQUEST)
    assert completion.ok and completion.attempts == 2, completion.error
    assert completion.text == answer_text(body)
    stats = server_stats(server)
    assert (stats["requests"], stats["timeout"], stats["ok"]) == (2, 1, 1)
