"""PII redaction applied to questions, their metadata and quarantined rows.

Only the redacted text is kept: the curate stage writes nothing else to data/processed/.
Context passages, KB documents and human-judged answers are published reference text, not user
messages, and are left as they are.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from parakh.config.dataset import PIIConfig
from parakh.schema import Question
from parakh.text.pii import PIIPolicy, redact


def policy_of(config: PIIConfig) -> PIIPolicy:
    return PIIPolicy.from_keep_list(config.keep)


def redact_value(value: Any, policy: PIIPolicy, counts: Counter[str]) -> Any:
    """Redact every string inside `value` (nested dicts and lists too); count what was found."""
    if isinstance(value, str):
        result = redact(value, policy)
        counts.update(result.counts)
        return result.text
    if isinstance(value, dict):
        return {key: redact_value(inner, policy, counts) for key, inner in value.items()}
    if isinstance(value, list):
        return [redact_value(inner, policy, counts) for inner in value]
    return value


def redact_questions(
    questions: list[Question], config: PIIConfig
) -> tuple[list[Question], Counter[str], int]:
    """(redacted questions, matches per PII kind, number of questions with any PII)."""
    if not config.enabled:
        return questions, Counter(), 0
    policy = policy_of(config)
    counts: Counter[str] = Counter()
    out: list[Question] = []
    touched = 0
    for question in questions:
        before = sum(counts.values())
        updates: dict[str, Any] = {
            f: redact_value(getattr(question, f), policy, counts) for f in config.fields
        }
        out.append(question.model_copy(update=updates))
        touched += sum(counts.values()) > before
    return out, counts, touched
