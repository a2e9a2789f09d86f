"""One request builder shared by the OpenAI-compatible and vLLM backends.

Both get the same messages and the same sampling parameters, so a model served by `vllm serve`
and the same model run in-process by vLLM see identical requests.
"""

from __future__ import annotations

from typing import Any

from parakh.backends.base import ChatRequest


def sampling_params(request: ChatRequest) -> dict[str, Any]:
    s = request.sampling
    params: dict[str, Any] = {
        "temperature": s.temperature,
        "top_p": s.top_p,
        "max_tokens": s.max_tokens,
        "seed": s.seed,
    }
    if s.stop:
        params["stop"] = list(s.stop)
    return params


def chat_body(request: ChatRequest, model_id: str) -> dict[str, Any]:
    """The body of an OpenAI `chat.completions.create` call."""
    body: dict[str, Any] = {
        "model": model_id,
        "messages": request.message_dicts(),
        **sampling_params(request),
    }
    if request.json_schema is not None:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "judgment", "schema": request.json_schema, "strict": True},
        }
    return body
