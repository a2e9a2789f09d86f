"""Reference metrics as judge rows: one row per (question, model, metric)."""

from __future__ import annotations

from parakh.metrics.registry import get_reference_metric
from parakh.schema import Generation, Judgment, Question


def reference_judgments(
    metrics: list[str], judge: str, question: Question, generation: Generation
) -> list[Judgment]:
    rows = []
    for name in metrics:
        metric = get_reference_metric(name)
        base = {
            "question_id": question.id,
            "model": generation.model,
            "judge": judge,
            "metric": name,
            "language": question.language,
            "categories": question.categories,
            "scale_max": metric.scale_max,
        }
        if generation.status != "ok" or generation.response is None:
            rows.append(
                Judgment(**base, status="error", reason=f"no response to score: {generation.error}")
            )
        elif not question.reference_answers:
            rows.append(Judgment(**base, status="error", reason="question has no reference answer"))
        else:
            score = metric.fn(
                generation.response, question.reference_answers, question.answer_language
            )
            rows.append(Judgment(**base, status="ok", score=round(float(score), 6)))
    return rows
