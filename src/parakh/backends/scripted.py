"""A deterministic fake backend for tests: scripted answers by request key, never random."""

from __future__ import annotations

from parakh.backends.base import BlockingBackend, ChatRequest, Completion
from parakh.config.model import ScriptedModel


class ScriptedBackend(BlockingBackend):
    cfg: ScriptedModel

    def __init__(self, cfg: ScriptedModel) -> None:
        super().__init__(cfg)
        self.calls = 0

    def complete(self, request: ChatRequest) -> Completion:
        self.calls += 1
        text = self.cfg.responses.get(request.key, self.cfg.default_response)
        return Completion(
            text=text.replace("{question}", request.question),
            prompt_tokens=sum(len(c.split()) for _, c in request.messages),
            completion_tokens=len(text.split()),
            finish_reason="stop",
        )
