"""Inter-grader agreement: do the human graders give one answer the same grade?

Per metric, over the answers (question, model) that have two or more grades: the observed
agreement (Krippendorff's: each grade's share of the other grades of its answer that equal it,
as a percentage of grades; with two graders, of the answers they grade alike) and
Krippendorff's alpha (ordinal; any number of graders, missing grades allowed), from one matrix
of coincidences. Given bootstrap settings, each gets
a seeded percentile interval over answers. A grader's second grade of an answer counts as
another grader's, as in judge-human agreement (`report.agreement`), shown beside it: how far
humans agree with each other is the ceiling to read a judge's agreement with them against.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from parakh.report.shared_statistics import Settings
from parakh.schema import HumanGrade
from parakh.stats import agreement as stats
from parakh.stats.bootstrap import derive_seed, percentile_interval


@dataclass(frozen=True)
class InterGraderStats:
    graders: list[str]
    n_items: int  # answers with two or more grades
    n_grades: int  # their grades
    percent_agreement: float | None
    krippendorff_alpha_ordinal: float | None
    # figure -> [low, high]: percentile bootstrap interval over answers (absent: not computed)
    intervals: dict[str, list[float]] = field(default_factory=dict)


def _figure(value: float) -> float | None:
    return round(float(value), 12) if np.isfinite(value) else None


def _percent(observed: np.ndarray) -> np.ndarray:
    """The observed agreement of each (.., k, k) matrix of coincidences, in percent."""
    total = observed.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(100.0 * np.trace(observed, axis1=-2, axis2=-1) / total)


def inter_grader_agreement(
    grades: Sequence[HumanGrade], settings: Settings | None = None, key: tuple[str, ...] = ()
) -> InterGraderStats | None:
    """The agreement of one metric's graders (None: fewer than two graders, or no answer
    graded twice); with `settings`, intervals seeded by the run seed and `key`."""
    graders = sorted({g.rater or "human" for g in grades})
    per_item = Counter((g.question_id, g.model) for g in grades)
    items = sorted(item for item, n in per_item.items() if n >= 2)
    if len(graders) < 2 or not items:
        return None
    column = {item: i for i, item in enumerate(items)}
    slots: dict[str, np.ndarray] = {}
    seen: Counter[tuple[tuple[str, str], str]] = Counter()
    for g in grades:
        item, grader = (g.question_id, g.model), g.rater or "human"
        if item not in column:
            continue
        seen[(item, grader)] += 1
        slot = slots.setdefault(f"{grader}#{seen[(item, grader)]}", np.full(len(items), np.nan))
        slot[column[item]] = g.score
    data = np.array(list(slots.values()))
    domain = np.unique(data[~np.isnan(data)])
    per_unit = stats.unit_coincidences(data, domain)  # (answers, k, k)
    observed = per_unit.sum(axis=0)
    intervals: dict[str, list[float]] = {}
    if settings is not None:
        seed = derive_seed(settings.seed, "agreement", *key)
        weights = stats.item_weights(len(items), settings.resamples, seed)
        k = domain.size
        drawn = (weights @ per_unit.reshape(len(items), k * k)).reshape(-1, k, k)
        draws = {
            "percent_agreement": _percent(drawn),
            "krippendorff_alpha_ordinal": stats.weighted_alpha(data, weights, domain, "ordinal"),
        }
        for name, values in draws.items():
            found = percentile_interval(values, settings.confidence)
            if found is not None:
                intervals[name] = [round(found.low, 6), round(found.high, 6)]
    return InterGraderStats(
        graders=graders,
        n_items=len(items),
        n_grades=int(np.sum(~np.isnan(data))),
        percent_agreement=_figure(float(_percent(observed))),
        krippendorff_alpha_ordinal=_figure(
            stats.alpha_of_coincidences(observed, domain, "ordinal")
        ),
        intervals=intervals,
    )
