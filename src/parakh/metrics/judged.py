"""The metrics a judge config writes a row of for every question (a failure is an `error` or
`skipped` row, never no row), and which of them a row fills: `nomiracl` is one slot, filled by
the verdict metric of the question's subset. `parakh.row_coverage` expects exactly these rows.
"""

from __future__ import annotations

from parakh.config.judge import JudgeConfig
from parakh.metrics.nomiracl import METRIC_OF_SUBSET
from parakh.metrics.registry import NOMIRACL, get_judge, is_judge, resolve_metric_name

NOMIRACL_METRICS = frozenset({NOMIRACL, *METRIC_OF_SUBSET.values()})


def judged_metrics(judge: JudgeConfig) -> list[str]:
    """Reference metrics (registry names, aliases resolved; a plugin judge's metrics in its
    place), then rubric criteria, as the judge stage writes them; each appears once."""
    from parakh.metrics.rubric import load_rubric  # rubric files: loaded only when asked

    names = []
    for name in map(resolve_metric_name, judge.reference_metrics):
        names += [s.name for s in get_judge(name).metrics] if is_judge(name) else [name]
    names += [metric for rubric in judge.rubrics for metric in load_rubric(rubric).metrics]
    return list(dict.fromkeys(names))


def metric_slot(metric: str, metrics: list[str]) -> str:
    """The expected metric a row of `metric` fills: `nomiracl` for its verdict metrics."""
    return NOMIRACL if metric in NOMIRACL_METRICS and NOMIRACL in metrics else metric
