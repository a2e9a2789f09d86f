"""Reference metrics as judge rows: one row per (question, model, metric).

Scores come from `parakh.metrics.scoring`, the path `parakh score` uses too, or from a plugin
judge (`parakh.metrics.specs.Judge`) named in the list. `nomiracl` gives one verdict row per
question on its subset, by the judge's `parser` (see `parakh.metrics.nomiracl`).
"""

from __future__ import annotations

from collections.abc import Sequence

from parakh.config.judge import DEFAULT_PARSER, NomiraclParser
from parakh.metrics.registry import get_judge, is_judge, resolve_metric_name
from parakh.metrics.scoring import MetricScore, ScoreItem, score_metric
from parakh.metrics.specs import Judge, MetricSpec, NotApplicable, Verdict
from parakh.schema import Generation, Judgment, Question


def reference_judgments(
    metrics: Sequence[str],
    judge: str,
    question: Question,
    generation: Generation,
    nomiracl_parser: NomiraclParser = DEFAULT_PARSER,
) -> list[Judgment]:
    """Rows for `metrics` (registry names or aliases; a plugin judge gives a row for each of its
    metrics) on one answer, failures included; `nomiracl_parser` classifies NoMIRACL verdicts."""
    ok = generation.status == "ok" and generation.response is not None
    item = ScoreItem(
        id=question.id,
        language=question.answer_language,
        prediction=generation.response if ok else None,
        references=question.reference_answers,
        subset=question.subset,
        prediction_error=None if ok else (generation.error or "generation failed"),
    )
    scores: list[MetricScore] = []
    for name in metrics:
        resolved = resolve_metric_name(name)
        if is_judge(resolved):
            scores += judge_scores(get_judge(resolved), question, generation)
        else:
            scores.append(score_metric(resolved, item, nomiracl_parser))
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
            justification=s.justification,
            flags=list(s.flags),
        )
        for s in scores
    ]


def judge_scores(judge: Judge, question: Question, generation: Generation) -> list[MetricScore]:
    """A plugin judge's score of each of its metrics on one answer; failures are error rows, and
    an answer the judge does not score (`NotApplicable`) gives skipped rows with its reason."""

    def failed(spec: MetricSpec, reason: str) -> MetricScore:
        return MetricScore(spec.name, "error", spec.scale_max, reason=reason)

    if generation.status != "ok" or generation.response is None:
        why = f"no response to score: {generation.error or 'prediction is missing'}"
        return [failed(spec, why) for spec in judge.metrics]
    try:
        found = judge.fn(question, generation)
    except NotApplicable as e:  # not this judge's to score: counted apart, never a score
        why = f"judge '{judge.name}': {e}"
        return [MetricScore(s.name, "skipped", s.scale_max, reason=why) for s in judge.metrics]
    except ValueError as e:  # bad data for this answer, as the judge says
        return [failed(spec, f"judge '{judge.name}': {e}") for spec in judge.metrics]
    verdict = found if isinstance(found, Verdict) else Verdict(found)
    out = []
    for spec in judge.metrics:
        score = verdict.scores.get(spec.name)
        if score is None or not spec.scale_min <= score <= spec.scale_max:
            out.append(failed(spec, f"judge '{judge.name}' gave {spec.name} = {score!r}"))
        else:
            out.append(
                MetricScore(
                    spec.name,
                    "ok",
                    spec.scale_max,
                    score=round(float(score), 6),
                    flags=verdict.flags,
                    justification=verdict.note,
                )
            )
    return out
