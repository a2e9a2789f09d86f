"""The leaderboard's statistics from shared draws: each cell's bootstrap interval, rank
intervals per metric and paired tests between every two models (`compare_models`).

The seed of a bootstrap is the run seed and the questions alone, so every cell over the same
questions (all models, all metrics, the weighted aggregate) reads the same resamples, and the
rank intervals reuse those draws; the paired tests of all metrics and pairs share one
resampling and one matrix of sign patterns over the run's questions
(`parakh.stats.shared_draws`); Holm's correction is applied within each metric, across its
pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm

from parakh.metrics.specs import WEIGHTED
from parakh.report.items import ItemIndex, SliceKey
from parakh.stats.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    ItemScores,
    derive_seed,
    percentile_interval,
)
from parakh.stats.paired import DEFAULT_PERMUTATIONS, PairedResult, holm_adjust
from parakh.stats.shared_draws import (
    PairedTest,
    RankInterval,
    ranks_of_draws,
    shared_draws,
    shared_paired_tests,
)

CellKey = tuple[str, str, str, str]  # (system, metric, dimension, value)
Bounds = tuple[float | None, float | None]


def items_seed(seed: int, digest: str) -> int:
    """The seed of every bootstrap over one list of questions (its digest)."""
    return derive_seed(seed, "items", digest)


@dataclass
class CellDraws:
    """Each cell's bootstrap interval, and each statistic's values on every resample by (seed
    of its questions, model, metric): two slices holding the same questions share them."""

    intervals: dict[CellKey, Bounds] = field(default_factory=dict)
    draws: dict[tuple[int, str, str], np.ndarray | None] = field(default_factory=dict)


def cell_draws(
    index: ItemIndex,
    systems: Sequence[str],
    metrics: Sequence[str],
    weighted: dict[str, float],
    slices: Sequence[SliceKey],
    settings: Settings,
    *,
    progress: bool = False,
) -> CellDraws:
    """Every (model, metric or weighted aggregate, slice) cell's draws, one resampling per
    list of questions not drawn yet, a slice at a time (its item tables dropped once drawn)."""
    found = CellDraws()
    bar = tqdm(slices, desc="aggregate: bootstrap draws", unit="slice", disable=not progress)
    for key in bar:
        cells = _slice_cells(index, systems, metrics, weighted, key, settings.seed)
        groups: dict[int, dict[tuple[str, str], ItemScores]] = {}
        for (system, metric), (seed, scores) in cells.items():
            if (seed, system, metric) not in found.draws:
                groups.setdefault(seed, {})[(system, metric)] = scores
        for seed, group in groups.items():
            draws = shared_draws(list(group.values()), seed=seed, resamples=settings.resamples)
            found.draws.update(
                {(seed, *cell): values for cell, values in zip(group, draws, strict=True)}
            )
        for (system, metric), (seed, _) in cells.items():
            values = found.draws[(seed, system, metric)]
            interval = None if values is None else percentile_interval(values, settings.confidence)
            bounds = (None, None) if interval is None else (interval.low, interval.high)
            found.intervals[(system, metric, *key)] = bounds
    return found


def _slice_cells(
    index: ItemIndex,
    systems: Sequence[str],
    metrics: Sequence[str],
    weighted: dict[str, float],
    key: SliceKey,
    seed: int,
) -> dict[tuple[str, str], tuple[int, ItemScores]]:
    """One slice's cells with rows: the seed of their questions and their item scores."""
    cells: dict[tuple[str, str], tuple[int, ItemScores]] = {}
    for system in systems:
        for metric in metrics:
            table = index.table(system, metric, key)
            if table is not None:
                cells[(system, metric)] = (items_seed(seed, table[2]), table[0])
        if weighted:
            scores, digest = index.weighted_table(system, weighted, key)
            if scores.n_items:
                cells[(system, WEIGHTED)] = (items_seed(seed, digest), scores)
    return cells


def shared_ranks(
    index: ItemIndex, systems: list[str], plan: MetricPlan, settings: Settings, known: CellDraws
) -> dict[str, RankInterval]:
    """Rank intervals on the models' overall draws (the cells' own, when their questions are
    the ones every model is aligned on; drawn again from the same seed otherwise)."""
    aligned, digest = index.aligned(systems, plan.weights, goodness=plan.goodness)
    names = [name for name, scores in aligned.items() if scores.point() is not None]
    if not names:
        return {}
    group_seed = items_seed(settings.seed, digest)
    cached = [known.draws.get((group_seed, name, plan.metric)) for name in names]
    if any(values is None for values in cached):
        scores = [aligned[name] for name in names]
        cached = shared_draws(scores, seed=group_seed, resamples=settings.resamples)
    points = np.array([aligned[name].point() for name in names], dtype=float)
    draws = np.stack([values for values in cached if values is not None], axis=1)
    return ranks_of_draws(
        names, points, draws, confidence=settings.confidence, higher_is_better=plan.higher_is_better
    )


@dataclass(frozen=True)
class MetricPlan:
    """What a metric's comparisons read: its weights (one metric: itself, 1.0), its direction,
    and whether values are 0..1 goodness (the weighted aggregate, reported on 0..weighted_scale)."""

    metric: str
    weights: dict[str, float]
    higher_is_better: bool

    @property
    def goodness(self) -> bool:
        return self.metric == WEIGHTED


def shared_paired(
    index: ItemIndex, systems: list[str], metrics: Sequence[MetricPlan], settings: Settings
) -> list[PairedComparison]:
    """Every pair of models on every metric, on the questions both have a score for (at
    least 2), in metric then pair order; Holm's correction within each metric."""
    values = [np.full((len(systems), len(index.questions)), np.nan) for _ in metrics]
    for plan, matrix in zip(metrics, values, strict=True):
        for i, system in enumerate(systems):  # on the reporting scale, NaN where none
            questions, value = index.per_item(system, plan.weights, goodness=plan.goodness)
            matrix[i, questions] = value * (settings.weighted_scale if plan.goodness else 1.0)
    tests = [
        PairedTest(group, i, j, m.higher_is_better)
        for group, m in enumerate(metrics)
        for i in range(len(systems))
        for j in range(i + 1, len(systems))
        if int((~np.isnan(values[group][i]) & ~np.isnan(values[group][j])).sum()) >= 2
    ]
    every = np.arange(len(index.questions))
    results = shared_paired_tests(
        values,
        tests,
        seed=derive_seed(settings.seed, "paired", index.digest(every)),
        permutations=settings.permutations,
        resamples=settings.resamples,
        confidence=settings.confidence,
    )
    paired: list[PairedComparison] = []
    for group, plan in enumerate(metrics):
        found = [(t, r) for t, r in zip(tests, results, strict=True) if t.group == group]
        ps = holm_adjust([r.p_value for _, r in found])
        paired += [
            PairedComparison(plan.metric, systems[t.a], systems[t.b], r, p)
            for (t, r), p in zip(found, ps, strict=True)
        ]
    return paired


@dataclass(frozen=True)
class Settings:
    """What the statistics depend on besides the rows; all of it is in the config."""

    seed: int = 0
    resamples: int = DEFAULT_RESAMPLES
    confidence: float = DEFAULT_CONFIDENCE
    permutations: int = DEFAULT_PERMUTATIONS
    weighted_scale: float = 1.0  # the weighted aggregate is reported on 0..weighted_scale


@dataclass(frozen=True)
class PairedComparison:
    """Two models on the items both were scored on, for one metric (overall); `better` names
    the model better in the metric's direction (`PairedResult.better`), None on a tie."""

    metric: str
    model_a: str
    model_b: str
    result: PairedResult
    p_holm: float

    @property
    def better(self) -> str | None:
        if self.result.better is None:
            return None
        return self.model_a if self.result.better == "a" else self.model_b


def compare_models(
    index: ItemIndex,
    systems: list[str],
    plans: list[MetricPlan],
    settings: Settings,
    known: CellDraws,
    *,
    progress: bool = False,
) -> tuple[dict[str, dict[str, RankInterval]], list[PairedComparison]]:
    """Each metric's rank intervals by model, and every paired test, in the order of `plans`."""
    bar = tqdm(
        plans, desc="aggregate: rank intervals, paired tests", unit="metric", disable=not progress
    )
    ranks = {plan.metric: shared_ranks(index, systems, plan, settings, known) for plan in bar}
    return ranks, shared_paired(index, systems, plans, settings)
