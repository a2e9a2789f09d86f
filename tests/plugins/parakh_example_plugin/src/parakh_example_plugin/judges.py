"""`prompt_compliance`: a judge of whether an answer keeps to what the prompt asked of it."""

from __future__ import annotations

import re

from parakh.metrics.specs import Judge, MetricSpec
from parakh.schema import Generation, Question


def prompt_compliance(question: Question, generation: Generation) -> dict[str, float]:
    answer = (generation.response or "").strip()
    if not answer:
        raise ValueError("the answer is empty")  # an error row with this reason
    sentences = [s for s in re.split(r"[.!?।]+", answer) if s.strip()]
    return {
        "at_most_three_sentences": float(len(sentences) <= 3),
        "repeats_question": float(question.text.casefold() in answer.casefold()),
    }


PROMPT_COMPLIANCE = Judge(
    name="prompt_compliance",  # the entry point's name
    metrics=(
        MetricSpec("at_most_three_sentences", "higher", 0.0, 1.0, "mean", "1: three or fewer"),
        MetricSpec(
            "repeats_question", "lower", 0.0, 1.0, "mean", "1: the answer echoes the question"
        ),
    ),
    fn=prompt_compliance,
)
