"""Aggregate per-sample judge rows into per-model scores, with their uncertainty.

A cell is one (model, metric, slice) figure: the mean over scored rows on the metric's scale,
its seeded bootstrap interval, and the invalid, error and skipped counts beside it, never
folded into it. Slices are the whole set (`all`), each language, each query category and each
domain. Each metric's `MetricSpec` (parakh.metrics.registry.metric_spec) says which way is
better and its scale: rankings put the best first (lowest first for NoMIRACL's hallucination
rate), a cell's percent runs from the scale's min to its max (1..5 rubrics too), and the
weighted aggregate is the weighted mean of the configured metrics after mapping each to 0..1 with 1
the good end, reported on 0..`weighted_scale` (1 by default; 2 for HEALTH-PARIKSHA's AGG). Rank
intervals and paired tests between models sit on top of the same per-item tables.

Translate-test rows (`Judgment.translator` set) form their own leaderboard entry,
`<model> via <translator>`, next to the model's direct entry, so the two are compared rather
than pooled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import overload

import numpy as np
from tqdm import tqdm

from parakh.errors import InputError
from parakh.metrics.registry import declared_specs, spec_in
from parakh.metrics.specs import WEIGHTED, WEIGHTED_SPEC, MetricSpec
from parakh.report.columns import JudgeColumns
from parakh.report.items import ALL, OVERALL, ItemIndex, row_systems, sample_spread, system_name
from parakh.report.row_files import STATUSES
from parakh.report.shared_statistics import (
    Bounds,
    CellDraws,
    MetricPlan,
    PairedComparison,
    Settings,
    cell_draws,
    compare_models,
)
from parakh.stats.shared_draws import RankInterval

DIMENSIONS = ("language", "category", "domain")


@dataclass
class Cell:
    """One (model, metric, slice) figure with its interval and counts, on the metric's scale."""

    mean: float | None
    n: int
    invalid: int = 0
    errors: int = 0
    scale_max: float = 1.0
    skipped: int = 0
    ci_low: float | None = None
    ci_high: float | None = None
    scale_min: float = 0.0

    @property
    def percent(self) -> float | None:
        """Where the mean sits on its scale, min 0% to max 100% (a 3 on 1..5 is 50%)."""
        if self.mean is None:
            return None
        return 100.0 * (self.mean - self.scale_min) / (self.scale_max - self.scale_min)

    @overload
    def unit(self, value: float) -> float: ...
    @overload
    def unit(self, value: None) -> None: ...
    @overload
    def unit(self, value: float | None) -> float | None: ...
    def unit(self, value: float | None) -> float | None:
        """A figure of this cell placed on 0..1 by the scale (direction unchanged)."""
        if value is None:
            return None
        return (value - self.scale_min) / (self.scale_max - self.scale_min)


def weighted_cell(
    cells: dict[str, Cell],
    weights: dict[str, float],
    specs: Mapping[str, MetricSpec],
    scale: float = 1.0,
    bounds: Bounds = (None, None),
) -> Cell | None:
    """Weighted mean of the metrics' 0..1 goodness (`MetricSpec.goodness`: min..max mapped to
    0..1, flipped for lower-is-better metrics), over the weighted metrics that have a score,
    with its 0..1 interval `bounds`, all reported on 0..`scale`."""
    present = {m: w for m, w in weights.items() if m in cells and cells[m].mean is not None}
    if not present:
        return None
    total = sum(present.values())
    mean = sum(w * specs[m].goodness(cells[m].mean or 0.0) for m, w in present.items()) / total
    used = [cells[m] for m in present]
    low, high = bounds
    return Cell(
        mean=mean * scale,
        n=min(c.n for c in used),
        scale_max=scale,
        invalid=sum(c.invalid for c in used),
        errors=sum(c.errors for c in used),
        skipped=sum(c.skipped for c in used),
        ci_low=None if low is None else low * scale,
        ci_high=None if high is None else high * scale,
    )


def weighted_spec(scale: float) -> MetricSpec:
    """The weighted aggregate's spec, on 0..`scale` (HEALTH-PARIKSHA's AGG: 0..2)."""
    return WEIGHTED_SPEC if scale == 1.0 else replace(WEIGHTED_SPEC, scale_max=scale)


@dataclass
class Leaderboard:
    models: list[str]
    metrics: list[str]
    languages: list[str]
    categories: list[str] = field(default_factory=list)
    domains: list[str] = field(default_factory=list)
    cells: dict[tuple[str, str, str, str], Cell] = field(default_factory=dict)
    ranks: dict[str, dict[str, RankInterval]] = field(default_factory=dict)
    paired: list[PairedComparison] = field(default_factory=list)
    systems: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)
    specs: dict[str, MetricSpec] = field(default_factory=dict)
    sample_spread: dict[str, dict[str, float]] = field(default_factory=dict)  # `sample_spread`

    def get(self, model: str, metric: str, language: str = ALL) -> Cell | None:
        key = OVERALL if language == ALL else ("language", language)
        return self.cells.get((model, metric, *key))

    def cell(self, model: str, metric: str, dimension: str, value: str) -> Cell | None:
        return self.cells.get((model, metric, dimension, value))

    def spread(self, metric: str) -> dict[str, float]:
        """Each entry's run-to-run spread on `metric` (empty without `generation.samples` > 1)."""
        return {m: by[metric] for m, by in self.sample_spread.items() if metric in by}

    def slices(self, dimension: str) -> list[str]:
        return {
            "language": self.languages,
            "category": self.categories,
            "domain": self.domains,
            ALL: [ALL],
        }[dimension]

    def spec(self, metric: str) -> MetricSpec:
        """The metric's direction and scale (`metric_specs_of`; the weighted aggregate's)."""
        return self.specs[metric]

    def ranking(self, metric: str = WEIGHTED, dimension: str = ALL, value: str = ALL) -> list[str]:
        """Models best first in the metric's direction (lowest first for a lower-is-better
        metric) on one slice; models without a score last, then by name."""
        spec = self.spec(metric)

        def key(m: str) -> float:
            cell = self.cell(m, metric, dimension, value)
            if cell is None or cell.mean is None:
                return float("inf")
            return -spec.signed(cell.mean)

        return sorted(self.models, key=lambda m: (key(m), m))

    def places(self, metric: str = WEIGHTED) -> list[tuple[int | None, str]]:
        """(place, model) in `ranking` order; a model without a score on the metric has no
        place (None), so a metric nobody scored on ranks nobody."""
        scored = [
            m for m in self.ranking(metric)
            if (c := self.get(m, metric)) is not None and c.mean is not None
        ]  # fmt: skip
        unscored = [m for m in self.ranking(metric) if m not in scored]
        return [(i, m) for i, m in enumerate(scored, start=1)] + [(None, m) for m in unscored]

    def best(self, metric: str, dimension: str = ALL, value: str = ALL) -> set[str]:
        """The models with the best mean of one slice in the metric's direction (ties all)."""
        spec = self.spec(metric)
        means = {
            m: c.mean
            for m in self.models
            if (c := self.cell(m, metric, dimension, value)) is not None and c.mean is not None
        }
        if not means:
            return set()
        top = max(spec.signed(v) for v in means.values())
        return {m for m, v in means.items() if spec.signed(v) == top}


def metric_specs_of(scale_max: Mapping[str, float]) -> dict[str, MetricSpec]:
    """The spec of every metric in the rows: the declared one (`declared_specs`), else the
    documented default (higher is better on 0..the rows' scale_max). A declared scale_max the
    rows contradict is an error."""
    catalogue = declared_specs() if scale_max else {}
    found: dict[str, MetricSpec] = {}
    for metric, row_max in scale_max.items():
        spec = spec_in(catalogue, metric, default_scale_max=row_max)
        if spec.scale_max != row_max:
            raise InputError(
                "judge rows",
                f"metric '{metric}' rows are on 0..{row_max:g} but its declaration says "
                f"{spec.scale_min:g}..{spec.scale_max:g}",
                field="scale_max",
            )
        found[metric] = spec
    return found


def _systems(columns: JudgeColumns, models: list[str]) -> dict[str, tuple[str, str | None]]:
    """Leaderboard entries in order: each listed model, its translate-test entries after it,
    then any model found in the rows but not listed. A listed model whose rows are all
    translate-test (a `<model>@translate-test` variant) has no direct entry."""
    order = {m: i for i, m in enumerate(models)}
    found = row_systems(columns)[2]
    translated_only = {m for m, via in found if via} - {m for m, via in found if not via}
    listed = {(m, None) for m in models if m not in translated_only}
    pairs: set[tuple[str, str | None]] = listed | found
    ordered = sorted(pairs, key=lambda p: (order.get(p[0], len(order)), p[0], p[1] or ""))
    return {system_name(*p): p for p in ordered}


def _check_rate_rows(columns: JudgeColumns, specs: Mapping[str, MetricSpec]) -> None:
    """A rate's scored rows are 0/1 events of its denominator (the mean over them is the
    rate); any other score means the rows are not what the spec says."""
    rate = np.array([specs[m].aggregation == "rate" for m in columns.metrics] or [False])
    ok = columns.status == STATUSES.index("ok")
    event = columns.has_score & ((columns.score == 0.0) | (columns.score == 1.0))
    wrong = np.flatnonzero(rate[columns.metric] & ok & ~event)
    if wrong.size:
        row = int(wrong[0])
        score = float(columns.score[row]) if columns.has_score[row] else None
        raise InputError(
            "judge rows",
            f"metric '{columns.metrics[columns.metric[row]]}' is a rate, so a scored row is 0 "
            f"or 1, not {score!r}: question {columns.question_ids[columns.question[row]]}, "
            f"model {columns.models[columns.model[row]]}",
            field="score",
        )


def build_leaderboard(
    columns: JudgeColumns,
    models: list[str],
    weights: dict[str, float],
    *,
    domains: Mapping[str, str | None] | None = None,
    settings: Settings | None = None,
    progress: bool = False,
) -> Leaderboard:
    """Every cell of every slice, the weighted aggregate, rank intervals and paired tests;
    `progress`: a bar on stderr over the bootstrap (by model) and the tests (by metric).

    `columns` are the judge rows' (`AggregateInputs.columns`). `domains`
    maps question ids to their domain (from the questions file); rows whose question has none
    are left out of the domain slices only. Metric specs come from `metric_specs_of`.
    """
    settings = settings or Settings()
    systems = _systems(columns, models)
    index = ItemIndex.of(columns, domains or {})
    index.specs = metric_specs_of(index.scale_max)
    _check_rate_rows(columns, index.specs)
    metrics = sorted(index.metrics, key=lambda m: (m not in weights, m))
    board = Leaderboard(
        models=list(systems),
        metrics=metrics,
        languages=index.languages,
        categories=index.categories,
        domains=index.domains,
        systems=systems,
        settings=settings,
        specs={**index.specs, WEIGHTED: weighted_spec(settings.weighted_scale)},
        sample_spread=sample_spread(columns),
    )
    slices = [OVERALL, *((d, v) for d in DIMENSIONS for v in board.slices(d))]
    weighted = {m: w for m, w in weights.items() if m in index.metrics}
    known = cell_draws(index, board.models, metrics, weighted, slices, settings, progress=progress)
    systems_bar = tqdm(
        board.models, desc="aggregate: bootstrap intervals", unit="model", disable=not progress
    )
    for system in systems_bar:
        _metric_cells(board, index, system, metrics, slices, known)
    if weighted:
        for system in board.models:
            _weighted_cells(board, index, system, weighted, slices, known)
        board.metrics = [WEIGHTED, *metrics]
    plans = [
        MetricPlan(m, weighted if m == WEIGHTED else {m: 1.0}, board.spec(m).higher_is_better)
        for m in board.metrics
    ]
    board.ranks, board.paired = compare_models(
        index, board.models, plans, settings, known, progress=progress
    )
    return board


def _metric_cells(
    board: Leaderboard,
    index: ItemIndex,
    system: str,
    metrics: list[str],
    slices: list[tuple[str, str]],
    known: CellDraws,
) -> None:
    """Every (metric, slice) cell of one model, with its bootstrap interval."""
    for metric in metrics:
        for key in slices:
            table = index.table(system, metric, key)
            if table is None:
                continue
            scores, counts, _ = table
            low, high = known.intervals[(system, metric, *key)]
            board.cells[(system, metric, *key)] = Cell(
                mean=scores.point(),
                n=int(scores.counts.sum()),
                invalid=counts["invalid"],
                errors=counts["error"],
                skipped=counts["skipped"],
                scale_max=index.scale_max[metric],
                scale_min=index.specs[metric].scale_min,
                ci_low=low,
                ci_high=high,
            )


def _weighted_cells(
    board: Leaderboard,
    index: ItemIndex,
    system: str,
    weighted: dict[str, float],
    slices: list[tuple[str, str]],
    known: CellDraws,
) -> None:
    """One model's weighted aggregate in every slice, with its interval."""
    for key in slices:
        by_metric = {
            m: c for m in weighted if (c := board.cells.get((system, m, *key))) is not None
        }
        bounds = known.intervals.get((system, WEIGHTED, *key), (None, None))
        cell = weighted_cell(
            by_metric, weighted, index.specs, board.settings.weighted_scale, bounds
        )
        if cell is not None:
            board.cells[(system, WEIGHTED, *key)] = cell
