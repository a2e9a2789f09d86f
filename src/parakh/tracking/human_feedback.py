"""Human feedback on Parakh's MLflow traces (`tracking.genai=true`) read back as `HumanGrade`s.

A grade is a HUMAN-source Feedback named after a metric: a rubric criterion (conf/rubric/, on
its scale), or a metric Parakh's judge scored on that trace (0..its `scale_max`). The
reviewer's source id is the rater. Per (trace, metric, rater) only the latest feedback MLflow
still marks valid counts (an overridden one is not); if that one is not a number on the
metric's scale it is skipped, counted with its reason, never replaced by an older one.
LLM-judge and code assessments, and expectations, are never grades.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from parakh.config.loading import available
from parakh.metrics.rubric import load_rubric
from parakh.schema import HumanGrade

PAGE = 500
GradeScale = tuple[float, float, bool]  # low, high, whole numbers only


@dataclass
class PulledGrades:
    """The grades found, the traces and raters they came from, and what was skipped, why."""

    grades: list[HumanGrade] = field(default_factory=list)
    traces: set[str] = field(default_factory=set)
    datasets: set[str] = field(default_factory=set)  # the `dataset` tags of those traces
    skipped: Counter[str] = field(default_factory=Counter)
    example: dict[str, str] = field(default_factory=dict)  # reason -> first trace/metric/rater

    def skip(self, reason: str, where: str) -> None:
        self.skipped[reason] += 1
        self.example.setdefault(reason, where)


def rubric_scales() -> dict[str, GradeScale]:
    """Every rubric criterion of conf/rubric/ with its rubric's scale."""
    return {
        metric: (float(r.scale.min), float(r.scale.max), r.scale.integer)
        for r in map(load_rubric, available("rubric"))
        for metric in r.metrics
    }


def iter_traces(client: Any, experiment_id: str, run_id: str | None) -> Iterator[Any]:
    """Every trace of the experiment (or linked to the run), without spans, page by page."""
    token = None
    while True:
        page = client.search_traces(
            locations=[experiment_id],
            run_id=run_id,
            include_spans=False,
            max_results=PAGE,
            page_token=token,
        )
        yield from page
        token = page.token
        if not token:
            return


def human_grades(traces: Iterable[Any], rubrics: Mapping[str, GradeScale]) -> PulledGrades:
    """The grades in the traces' human feedback, sorted by model, question, metric, rater."""
    pulled = PulledGrades()
    for trace in traces:
        info = trace.info
        scales = {**_judged_scales(info.assessments), **rubrics}
        latest: dict[tuple[str, str | None], Any] = {}
        for a in info.assessments:
            if _feedback(a, human=True) and a.valid is not False and a.name in scales:
                key = (a.name, a.source.source_id)
                if key not in latest or _order(a) > _order(latest[key]):
                    latest[key] = a
        for (metric, rater), a in latest.items():
            where = f"trace {info.trace_id}, {metric} by {rater}"
            model, question = info.tags.get("model"), info.tags.get("question_id")
            if not model or not question:
                pulled.skip("trace has no Parakh model/question_id tags", where)
                continue
            why = _off_scale(a.value, scales[metric])
            if why:
                pulled.skip(why, where)
                continue
            grade = HumanGrade(
                question_id=question,
                model=model,
                metric=metric,
                score=float(a.value),
                rater=rater,
                language=info.tags.get("language"),
            )
            pulled.grades.append(grade)
            pulled.traces.add(info.trace_id)
            pulled.datasets.add(info.tags.get("dataset", "?"))
    pulled.grades.sort(
        key=lambda g: (g.model, g.question_id, g.metric, g.rater or "", g.language or "", g.score)
    )
    return pulled


def _feedback(assessment: Any, *, human: bool) -> bool:
    """Whether it is a Feedback (not an Expectation) given by a human, or by anything else."""
    is_human = assessment.source.source_type == "HUMAN"
    return getattr(assessment, "feedback", None) is not None and is_human == human


def _order(assessment: Any) -> tuple[int, int, str]:
    return (
        assessment.last_update_time_ms or 0,
        assessment.create_time_ms or 0,
        assessment.assessment_id or "",
    )


def _judged_scales(assessments: Iterable[Any]) -> dict[str, GradeScale]:
    """The metrics Parakh's judge scored on a trace, on 0..the `scale_max` it logged."""
    return {
        a.name: (0.0, float(a.metadata["scale_max"]), False)
        for a in assessments
        if _feedback(a, human=False) and "scale_max" in (a.metadata or {})
    }


def _off_scale(value: Any, scale: GradeScale) -> str | None:
    """Why `value` is not a grade on `scale`; None if it is one."""
    low, high, integer = scale
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return "value is not a number"
    if not low <= value <= high:
        return f"value outside the metric's {low:g}..{high:g} scale"
    if integer and value != int(value):
        return f"value not a whole number on the metric's {low:g}..{high:g} scale"
    return None
