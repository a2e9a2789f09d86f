"""The in-process llama.cpp backend with the SmolLM2 GGUF: exact token counts, chat and
completion-style (base-model) requests."""

from __future__ import annotations

import pytest

from parakh.backends import make_backend
from parakh.backends.base import ChatRequest
from parakh.config import compose
from parakh.config.model import Sampling

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def smollm2():
    pytest.importorskip("llama_cpp")
    backend = make_backend(compose(["model=smollm2"]).model)
    yield backend
    backend.close()


def test_token_counts_come_from_the_models_tokenizer(smollm2) -> None:
    assert smollm2.count_tokens("") == 0
    assert 0 < smollm2.count_tokens("Hello world") <= 3
    assert smollm2.count_tokens("नमस्ते दुनिया") > smollm2.count_tokens("Hello world")


def test_chat_and_completion_requests_both_answer(smollm2) -> None:
    sampling = Sampling(temperature=0.0, max_tokens=8, seed=0)
    chat = ChatRequest(key="c", messages=(("user", "Say hello."),), sampling=sampling)
    plain = ChatRequest(
        key="p",
        messages=(("user", "The capital of France is"),),
        sampling=sampling,
        prompt="Q: Name a colour.\nA:",
    )
    for request in (chat, plain):
        completion = smollm2.complete(request)
        assert completion.ok and completion.text, completion.error
        assert 0 < completion.completion_tokens <= 8
        assert completion.finish_reason in ("stop", "length")


def test_an_answer_cut_by_max_tokens_says_length(smollm2) -> None:
    sampling = Sampling(temperature=0.0, max_tokens=2, seed=0)
    request = ChatRequest(
        key="long", messages=(("user", "Write a long story about a cat."),), sampling=sampling
    )
    completion = smollm2.complete(request)
    assert completion.ok and completion.completion_tokens == 2
    assert completion.finish_reason == "length"
