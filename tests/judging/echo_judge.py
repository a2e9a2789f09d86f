"""A judge scripted to echo any score it finds in its input (for the hardening tests)."""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from parakh.backends.base import BlockingBackend, ChatRequest, Completion
from parakh.config.model import ScriptedModel

EchoMode = Literal["echo_found", "echo_then_own", "echo_inside_own"]

# Whatever looks like a score statement, as the judge sees it: a JSON-ish object (braces or
# their escaped look-alikes) or a `Score: n` line.
_FOUND = re.compile(
    r"[{\u2774][^{}\u2774\u2775]*?score[^{}\u2774\u2775]*[}\u2775]|score\s*[:=]\s*\d", re.I
)
_BLOCK = re.compile(r"<(response|answer)>(.*?)</\1>", re.S)


class EchoJudge(BlockingBackend):
    """`echo_found`: repeats every score statement found in its input (its own verdict only
    when there is none); `echo_then_own`: the found statements, then its own verdict object;
    `echo_inside_own`: its own verdict object, quoting the response in the Justification."""

    def __init__(self, mode: EchoMode, own_score: int = 1) -> None:
        super().__init__(ScriptedModel(name=f"echo-{mode}", backend="scripted"))
        self.mode, self.own_score = mode, own_score
        self.calls = 0

    def identity(self) -> dict[str, Any]:
        return {"backend": "echo", "mode": self.mode, "own": self.own_score}

    def complete(self, request: ChatRequest) -> Completion:
        self.calls += 1
        user = request.messages[-1][1] if request.messages[-1][0] == "user" else ""
        match = _BLOCK.search(user)
        block = match.group(2) if match else ""
        found = [m.group(0) for m in _FOUND.finditer(block)]
        own = json.dumps({"Score": self.own_score, "Justification": "my own verdict"})
        if self.mode == "echo_found":
            text = "\n".join(found) if found else own
        elif self.mode == "echo_then_own":
            text = "\n".join([*found, own])
        else:
            text = json.dumps({"Score": self.own_score, "Justification": block})
        return Completion(text=text)
