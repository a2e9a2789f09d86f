"""Any generation backend as a translator: a vLLM-served, hosted or local LLM with a prompt.

The prompt is a file in conf/prompt/ (default `translate.yaml`); every sentence is one request
through `parakh.backends.make_backend`, so concurrency, retries and errors behave as in
generation. A failed request is a failed sentence with the backend's reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from parakh.backends import ChatRequest, make_backend
from parakh.backends.base import Backend
from parakh.backends.runner import generate_all
from parakh.config.loading import load_named
from parakh.config.translator import LLMTranslatorConfig
from parakh.hashing import sha256_text
from parakh.text.languages import LanguageTag
from parakh.translation.base import Translated, Translator


class TranslatePrompt(BaseModel):
    """conf/prompt/translate*.yaml: {source_language}, {target_language} and {text} fields."""

    model_config = ConfigDict(extra="forbid")

    name: str
    system: str
    user: str
    completion: str = Field(description="the whole request text for a base model")
    strip_prefixes: list[str] = Field(default_factory=list)


def clean_reply(text: str, strip_prefixes: Sequence[str]) -> str:
    """The translation in a reply: known lead-ins and wrapping quotes removed."""
    reply = text.strip()
    for prefix in strip_prefixes:
        if reply.casefold().startswith(prefix.casefold()):
            reply = reply[len(prefix) :].strip()
    if len(reply) >= 2 and reply[0] == reply[-1] and reply[0] in "\"'`“”":
        reply = reply[1:-1].strip()
    return reply


class LLMTranslator(Translator):
    cfg: LLMTranslatorConfig

    def __init__(self, cfg: LLMTranslatorConfig) -> None:
        super().__init__(cfg)
        self.prompt: TranslatePrompt = load_named("prompt", cfg.prompt, TranslatePrompt)
        self.backend: Backend = make_backend(cfg.model)

    def identity(self) -> dict[str, Any]:
        return {
            "kind": "llm",
            "model": self.backend.identity(),
            "model_kind": self.cfg.model.kind,
            "sampling": self.cfg.model.sampling.model_dump(),
            "prompt": self.prompt.model_dump(),
        }

    def request(
        self, key: str, sentence: str, source: LanguageTag, target: LanguageTag
    ) -> ChatRequest:
        values = {
            "source_language": source.describe(),
            "target_language": target.describe(),
            "text": sentence,
        }
        base = self.cfg.model.kind == "base"
        return ChatRequest(
            key=key,
            messages=(
                ("system", self.prompt.system.format_map(values)),
                ("user", self.prompt.user.format_map(values)),
            ),
            sampling=self.cfg.model.sampling,
            prompt=self.prompt.completion.format_map(values) if base else None,
        )

    def translate_batch(
        self, sentences: Sequence[str], source: LanguageTag, target: LanguageTag
    ) -> list[Translated]:
        keys = [f"{i}:{sha256_text(s)[:16]}" for i, s in enumerate(sentences)]
        requests = [
            self.request(k, s, source, target) for k, s in zip(keys, sentences, strict=True)
        ]
        done: dict[str, Translated] = {}
        for request, completion in generate_all(self.backend, requests):
            reply = clean_reply(completion.text or "", self.prompt.strip_prefixes)
            error = completion.error if not completion.ok else "empty translation"
            done[request.key] = (
                Translated(text=reply)
                if completion.ok and reply
                else Translated(text=None, error=f"{self.cfg.model.name}: {error}")
            )
        return [done[k] for k in keys]

    def close(self) -> None:
        self.backend.close()
