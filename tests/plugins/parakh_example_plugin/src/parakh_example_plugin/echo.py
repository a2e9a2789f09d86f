"""`backend: echo`: answers with the first words of the best retrieved passage."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from parakh.backends.base import BlockingBackend, ChatRequest, Completion
from parakh.config.model import ModelBase


class EchoModel(ModelBase):
    """conf/model/<name>.yaml of an echo model; unknown keys are refused, as for any model."""

    backend: Literal["echo"]
    max_words: int = Field(default=30, ge=1)

    def weights(self) -> str | None:
        return None  # no LLM weights: it never judges its own answers by mistake


class EchoBackend(BlockingBackend):
    config_class = EchoModel  # validates `model:` configs whose backend is `echo`
    cfg: EchoModel

    def complete(self, request: ChatRequest) -> Completion:
        if not request.passages:  # a failure is a row with its reason, never an empty answer
            return Completion(text=None, error="no retrieved passage to echo")
        words = request.passages[0].split()[: self.cfg.max_words]
        return Completion(text=" ".join(words), finish_reason="stop")
