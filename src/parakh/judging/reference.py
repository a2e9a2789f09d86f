"""Reference metrics as judge rows: one row per (question, model, metric).

Scores come from `parakh.metrics.scoring`, the path `parakh score` uses too. `nomiracl` gives
one verdict row per question on its subset, by the judge's `parser` (see
`parakh.metrics.nomiracl_parsers`).
"""

from __future__ import annotations

from collections.abc import Sequence

from parakh.metrics.nomiracl_parsers import DEFAULT_PARSER, NomiraclParser
from parakh.metrics.scoring import ScoreItem, score_item
from parakh.schema import Generation, Judgment, Question


def score_item_of(question: Question, generation: Generation) -> ScoreItem:
    ok = generation.status == "ok" and generation.response is not None
    return ScoreItem(
        id=question.id,
        language=question.answer_language,
        prediction=generation.response if ok else None,
        references=question.reference_answers,
        subset=question.subset,
        prediction_error=None if ok else (generation.error or "generation failed"),
    )


def reference_judgments(
    metrics: Sequence[str],
    judge: str,
    question: Question,
    generation: Generation,
    nomiracl_parser: NomiraclParser = DEFAULT_PARSER,
) -> list[Judgment]:
    """Rows for `metrics` (registry names or aliases) on one answer, failures included;
    `nomiracl_parser` classifies NoMIRACL verdicts."""
    return [
        Judgment(
            question_id=question.id,
            model=generation.model,
            judge=judge,
            metric=s.metric,
            language=question.language,
            categories=question.categories,
            status=s.status,
            score=s.score,
            scale_max=s.scale_max,
            label=s.label,
            reason=s.reason,
            flags=list(s.flags),
        )
        for s in score_item(metrics, score_item_of(question, generation), nomiracl_parser)
    ]
