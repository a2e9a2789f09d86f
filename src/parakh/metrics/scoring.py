"""Score one prediction with a list of metrics: the one path of the judge stage and `parakh
score`. Each metric gives a `MetricScore`: `ok` with a score, `invalid` (a NoMIRACL output with
no verdict) or `error` with the reason; no failure becomes a score. `nomiracl` gives one row on
the subset where the output counts (`nomiracl_hallucination` or `nomiracl_error`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from parakh.config.judge import DEFAULT_PARSER, NomiraclParser
from parakh.metrics.nomiracl import (
    INVALID,
    METRIC_OF_SUBSET,
    SUBSETS,
    both_labels,
    disagreement_flag,
    other_parser,
    verdict_score,
)
from parakh.metrics.registry import NOMIRACL, get_reference_metric, resolve_metric_name

Status = Literal["ok", "invalid", "error", "skipped"]  # skipped: a plugin judge's NotApplicable


@dataclass(frozen=True)
class ScoreItem:
    """What a row is scored on. `language` is the language the answer was requested in."""

    id: str
    language: str | None
    prediction: str | None
    references: Sequence[str] = field(default_factory=tuple)
    subset: str | None = None
    prediction_error: str | None = None


@dataclass(frozen=True)
class MetricScore:
    """One metric on one item: `score` when `ok`, else the `reason`; a NoMIRACL verdict's
    `label`, and `flags` where the other parser disagrees; a plugin judge's flags and its
    `justification` (`parakh.metrics.specs.Verdict`)."""

    metric: str
    status: Status
    scale_max: float
    flags: tuple[str, ...] = ()
    score: float | None = None
    label: str | None = None
    reason: str | None = None
    justification: str | None = None


def resolve_metrics(names: Sequence[str]) -> list[str]:
    """Registry names for names or aliases, duplicates dropped, order kept; ConfigError if
    any is unknown."""
    return list(dict.fromkeys(map(resolve_metric_name, names)))


def _nomiracl(item: ScoreItem, parser: NomiraclParser) -> MetricScore:
    if item.subset not in SUBSETS:
        metric = METRIC_OF_SUBSET.get(item.subset or "", NOMIRACL)
        why = "no NoMIRACL subset" if item.subset is None else f"unknown subset {item.subset!r}"
        return MetricScore(
            metric, "error", 1.0, reason=f"{why}: expected one of {', '.join(SUBSETS)}"
        )
    metric = METRIC_OF_SUBSET[item.subset]
    if item.prediction is None:
        return MetricScore(metric, "error", 1.0, reason=_no_prediction(item))
    labels = both_labels(item.prediction)
    label, other = labels[parser], labels[other_parser(parser)]
    flags = () if other == label else (disagreement_flag(parser, other),)
    if label == INVALID:
        return MetricScore(
            metric,
            "invalid",
            1.0,
            label=label,
            reason="the output states neither 'Yes, answer is present' nor 'I don't know'",
            flags=flags,
        )
    score = verdict_score(item.subset, label)
    return MetricScore(metric, "ok", 1.0, score=score, label=label, flags=flags)


def _no_prediction(item: ScoreItem) -> str:
    return f"no response to score: {item.prediction_error or 'prediction is missing'}"


def score_metric(
    name: str, item: ScoreItem, nomiracl_parser: NomiraclParser = DEFAULT_PARSER
) -> MetricScore:
    """One metric (registry name or alias) on one item; `nomiracl_parser` scores `nomiracl`."""
    metric_name = resolve_metric_name(name)
    if metric_name == NOMIRACL:
        return _nomiracl(item, nomiracl_parser)
    metric = get_reference_metric(metric_name)

    def failed(reason: str) -> MetricScore:
        return MetricScore(metric.name, "error", metric.scale_max, reason=reason)

    if item.prediction is None:
        return failed(_no_prediction(item))
    references = [r for r in item.references if r.strip()]
    if metric.needs_reference and not references:
        return failed("no reference answer")
    try:
        score = metric.fn(item.prediction, references, item.language)
    except ValueError as e:  # bad data for this row (e.g. an unknown language code)
        return failed(str(e))
    return MetricScore(metric.name, "ok", metric.scale_max, score=round(float(score), 6))


def score_item(
    metrics: Sequence[str], item: ScoreItem, nomiracl_parser: NomiraclParser = DEFAULT_PARSER
) -> list[MetricScore]:
    """Every metric on one item, in the given order."""
    return [score_metric(name, item, nomiracl_parser) for name in metrics]
