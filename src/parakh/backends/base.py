"""The one backend interface: chat requests in, completions (or recorded errors) out.

Backends are created lazily from a model config, so an optional dependency (llama.cpp, vLLM,
openai) is imported only when a model that needs it is used.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from parakh.config.schema import ModelConfig, Sampling


@dataclass(frozen=True)
class ChatRequest:
    """One request. `question` and `passages` are there for non-LLM baselines."""

    key: str
    messages: tuple[tuple[str, str], ...]
    sampling: Sampling
    json_schema: dict[str, Any] | None = None
    question: str = ""
    passages: tuple[str, ...] = ()

    def message_dicts(self) -> list[dict[str, str]]:
        return [{"role": r, "content": c} for r, c in self.messages]

    def cache_payload(self) -> dict[str, Any]:
        """Everything in the request that changes the output, and nothing that does not."""
        return {
            "messages": self.message_dicts(),
            "sampling": self.sampling.model_dump(),
            "json_schema": self.json_schema,
            "question": self.question,
            "passages": list(self.passages),
        }


@dataclass
class Completion:
    text: str | None
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None and self.text is not None


class Backend(ABC):
    """Turns requests into completions. Failures come back as completions with an error."""

    def __init__(self, cfg: ModelConfig) -> None:
        self.cfg = cfg

    @abstractmethod
    def identity(self) -> dict[str, Any]:
        """What identifies the model for caching: backend, model id, revision or file hash."""

    @abstractmethod
    def complete(self, request: ChatRequest) -> Completion: ...

    def complete_many(
        self, requests: Iterable[ChatRequest]
    ) -> Iterator[tuple[ChatRequest, Completion]]:
        """Yield results as they finish (in any order); sequential unless a backend overrides."""
        for request in requests:
            yield request, self.complete(request)

    def close(self) -> None:  # noqa: B027 - optional hook, most backends hold nothing
        """Release resources (servers, GPU memory)."""


_BACKENDS = {
    "llamacpp": "parakh.backends.llamacpp:LlamaCppBackend",
    "openai": "parakh.backends.openai_compat:OpenAIBackend",
    "vllm": "parakh.backends.vllm_backend:VLLMBackend",
    "extractive": "parakh.backends.extractive:ExtractiveBackend",
    "scripted": "parakh.backends.scripted:ScriptedBackend",
}


def make_backend(cfg: ModelConfig) -> Backend:
    module_name, _, cls_name = _BACKENDS[cfg.backend].partition(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    backend: Backend = cls(cfg)
    return backend
