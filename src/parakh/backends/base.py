"""The one backend interface: chat requests in, completions (or recorded errors) out.

Backends are created lazily from a model config, so an optional dependency (llama.cpp, vLLM,
openai) is imported only when a model that needs it is used.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from parakh import plugins
from parakh.config.model import ModelConfig, Sampling


@dataclass(frozen=True)
class ChatRequest:
    """One request. `question` and `passages` are there for non-LLM baselines; `prompt`, when
    set, is a base model's completion text (no chat template), sent instead of the messages."""

    key: str
    messages: tuple[tuple[str, str], ...]
    sampling: Sampling
    json_schema: dict[str, Any] | None = None
    question: str = ""
    passages: tuple[str, ...] = ()
    prompt: str | None = None

    def message_dicts(self) -> list[dict[str, str]]:
        return [{"role": r, "content": c} for r, c in self.messages]

    def cache_payload(self) -> dict[str, Any]:
        """Everything in the request that changes the output, and nothing that does not."""
        payload: dict[str, Any] = {
            "messages": self.message_dicts(),
            "sampling": self.sampling.model_dump(),
            "json_schema": self.json_schema,
            "question": self.question,
            "passages": list(self.passages),
        }
        if self.prompt is not None:  # absent for chat requests, so their keys stay as they were
            payload["prompt"] = self.prompt
        return payload


@dataclass
class Completion:
    """What a backend returned for one request: text, or the reason there is none.

    `attempts` counts calls (retries included); `latency_s` is the successful call's, or the
    time spent before giving up; `finish_reason` as the backend said it ("stop", "length")."""

    text: str | None
    error: str | None = None
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    attempts: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None and self.text is not None


class Backend(ABC):
    """Turns requests into completions, asynchronously (`generate`); a caller outside an event
    loop goes through `runner`. Failures come back as completions with an error."""

    def __init__(self, cfg: ModelConfig) -> None:
        self.cfg = cfg

    def identity(self) -> dict[str, Any]:
        """What the response cache keys the model by: every config setting that can change an
        answer (`answer_settings`: all fields but those its config class declares neutral).
        A backend adds what it resolves beyond the config (a GGUF's or answers file's hash)."""
        return self.cfg.answer_settings()

    @abstractmethod
    def generate(
        self, requests: Sequence[ChatRequest]
    ) -> AsyncIterator[tuple[ChatRequest, Completion]]:
        """Yield each request with its completion as it finishes, in any order."""

    def prepare(self, question_ids: Collection[str]) -> None:  # noqa: B027 - optional hook
        """Check the run's questions before anything is written (replay: unknown ids)."""

    def use_run_settings(self, response_cache: Path, show_progress: bool) -> None:  # noqa: B027
        """Where the response cache lies (the extractive baseline keeps its embeddings beside
        it) and whether to draw progress bars."""

    def count_tokens(self, text: str) -> int:
        """Tokens `text` takes in this model's prompt: an upper-leaning estimate, exact in the
        backends that hold the model's tokenizer (llama.cpp, vLLM)."""
        return estimate_tokens(text)

    def close(self) -> None:  # noqa: B027 - optional hook, most backends hold nothing
        """Release resources (servers, GPU memory)."""


class BlockingBackend(Backend):
    """A backend whose work is one blocking call per request (an in-process model, a table
    look-up): run one at a time on the event loop, where nothing else waits meanwhile."""

    @abstractmethod
    def complete(self, request: ChatRequest) -> Completion: ...

    async def generate(
        self, requests: Sequence[ChatRequest]
    ) -> AsyncIterator[tuple[ChatRequest, Completion]]:
        for request in requests:
            yield request, self.complete(request)


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate that errs high: ~4 ASCII characters per token, and one token
    per other character (Indic scripts split into about one to three tokens per akshara in
    most open-model vocabularies, so one per code point is rarely an underestimate)."""
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return (ascii_chars + 3) // 4 + (len(text) - ascii_chars)


def make_backend(cfg: ModelConfig) -> Backend:
    """The backend for a model config: the class registered as `cfg.backend` in the
    `parakh.backends` entry points (`parakh.plugins`), imported only now."""
    return cast(Backend, plugins.load("backends", cfg.backend)(cfg))
