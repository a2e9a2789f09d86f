"""One request builder shared by the OpenAI-compatible and vLLM backends.

Both get the same messages and the same sampling parameters, so a model served by `vllm serve`
and the same model run in-process by vLLM see identical requests. Base models (no chat
template) get the request's completion-style `prompt` instead of messages.
"""

from __future__ import annotations

from typing import Any, Literal

from parakh.backends.base import ChatRequest
from parakh.backends.structured_outputs import strict_schema

StructuredOutput = Literal["json_schema", "json_object_schema", "none"]


def sampling_params(request: ChatRequest) -> dict[str, Any]:
    """Sampling numbers, named as the OpenAI API, vLLM's `SamplingParams` and llama-cpp-python's
    completion calls all name them."""
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


def wire_messages(request: ChatRequest, system_role: bool = True) -> list[dict[str, str]]:
    """The messages as sent. A model whose chat template rejects a system turn (Gemma) gets
    the system text at the top of the first user turn instead."""
    messages = request.message_dicts()
    if system_role or not messages or messages[0]["role"] != "system":
        return messages
    system, rest = messages[0]["content"], messages[1:]
    if rest and rest[0]["role"] == "user":
        return [{"role": "user", "content": f"{system}\n\n{rest[0]['content']}"}, *rest[1:]]
    return [{"role": "user", "content": system}, *rest]


def response_format(
    schema: dict[str, Any], style: StructuredOutput = "json_schema"
) -> dict[str, Any] | None:
    """The `response_format` that constrains output to `schema`, in the server's dialect.

    OpenAI's strict `json_schema` gets only the keywords its documentation supports for every
    model (`structured_outputs.strict_schema`); llama-cpp-python's `json_object` takes the
    whole schema into its grammar."""
    if style == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": "response", "schema": strict_schema(schema), "strict": True},
        }
    if style == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    return None


def chat_body(
    request: ChatRequest,
    model_id: str,
    *,
    structured_output: StructuredOutput = "json_schema",
    system_role: bool = True,
) -> dict[str, Any]:
    """The body of an OpenAI `chat.completions.create` call."""
    body: dict[str, Any] = {
        "model": model_id,
        "messages": wire_messages(request, system_role),
        **sampling_params(request),
    }
    if request.json_schema is not None:
        fmt = response_format(request.json_schema, structured_output)
        if fmt is not None:
            body["response_format"] = fmt
    return body


def completion_body(request: ChatRequest, model_id: str) -> dict[str, Any]:
    """The body of an OpenAI `completions.create` call, for a base model's text `prompt`."""
    return {"model": model_id, "prompt": request.prompt, **sampling_params(request)}
