"""A real generation through OpenAIBackend from llama.cpp's OpenAI-compatible server on
loopback (SmolLM2-135M GGUF), free text and JSON-schema constrained."""

from __future__ import annotations

import json

import pytest

from parakh.backends.base import ChatRequest
from parakh.backends.openai_compat import OpenAIBackend
from parakh.backends.runner import generate_all
from parakh.config.model import OpenAIModel, Sampling

from .conftest import complete_one

pytestmark = [pytest.mark.server, pytest.mark.slow]

SCHEMA = {
    "type": "object",
    "properties": {
        "Score": {"type": "integer", "enum": [0, 1, 2]},
        "Justification": {"type": "string", "maxLength": 60},
    },
    "required": ["Score", "Justification"],
}


def _backend(base_url: str) -> OpenAIBackend:
    return OpenAIBackend(
        OpenAIModel(
            name="smollm2-served",
            backend="openai",
            model_id="smollm2",
            base_url=base_url,
            structured_output="json_object_schema",  # llama-cpp-python's server dialect
            # One in flight: the server answers one request at a time from the previous
            # prompt's cache, so the order two requests arrive in can change SmolLM2's greedy
            # answer, and the test compares answers.
            concurrency=1,
            timeout_s=60,
            max_retries=1,
        )
    )


def test_the_llama_cpp_server_answers_through_the_openai_backend(llama_server) -> None:
    backend = _backend(llama_server.base_url)
    requests = [
        ChatRequest(
            key=f"q{i}",
            messages=(("system", "You are a helpful assistant."), ("user", question)),
            sampling=Sampling(temperature=0.0, max_tokens=16, seed=0),
        )
        for i, question in enumerate(["What is the capital of France?", "Name a colour."])
    ]
    results = dict((r.key, c) for r, c in generate_all(backend, requests))
    for completion in results.values():
        assert completion.ok, completion.error
        assert completion.text and completion.text.strip()
        assert completion.prompt_tokens > 0 and 0 < completion.completion_tokens <= 16
    again = complete_one(backend, requests[0])
    assert again.text == results["q0"].text  # temperature 0: the same answer


def test_json_schema_constrained_output_parses(llama_server) -> None:
    backend = _backend(llama_server.base_url)
    request = ChatRequest(
        key="j",
        messages=(("user", "Rate the answer 'Paris' to 'Capital of France?' from 0 to 2."),),
        sampling=Sampling(temperature=0.0, max_tokens=48, seed=0),
        json_schema=SCHEMA,
    )
    completion = complete_one(backend, request)
    assert completion.ok, completion.error
    verdict = json.loads(completion.text or "")
    assert verdict["Score"] in (0, 1, 2) and isinstance(verdict["Justification"], str)
