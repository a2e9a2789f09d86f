"""Completion-style prompts for base models, which have no chat template.

The chat turns are laid out as one text by the model's `completion_format` (catalog entry), so
the same prompt file serves chat and base models, and few-shot examples become the familiar
`question / Answer: ...` blocks before the question being asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from parakh.config.model import CompletionFormat


def completion_prompt(turns: Sequence[tuple[str, str]], fmt: CompletionFormat) -> str:
    """One text from (role, content) turns, ending where the model should write."""
    layout = {"system": fmt.system, "user": fmt.user, "assistant": fmt.assistant}
    parts = [layout[role].replace("{content}", content) for role, content in turns]
    return "".join(parts) + fmt.generation_prefix


def completion_stops(configured: Sequence[str], fmt: CompletionFormat) -> list[str]:
    """The model's stop strings plus the format's (so a base model stops after one answer)."""
    return list(dict.fromkeys([*configured, *fmt.stop]))
