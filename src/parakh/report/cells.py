"""One leaderboard figure (`Cell`), and the weighted aggregate built from a model's cells.

The weighted aggregate is the weighted mean of each metric's 0..1 goodness (its declared scale
mapped onto 0..1, flipped for lower-is-better metrics), reported on 0..`weighted_scale`
(1 by default; 2 for HEALTH-PARIKSHA's AGG).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import overload

from parakh.metrics.specs import WEIGHTED_SPEC, MetricSpec


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
    cells: dict[str, Cell], weights: dict[str, float], specs: Mapping[str, MetricSpec]
) -> Cell | None:
    """Weighted mean of the metrics' 0..1 goodness (`MetricSpec.goodness`: min..max mapped to
    0..1, flipped for lower-is-better metrics), over the weighted metrics that have a score."""
    present = {m: w for m, w in weights.items() if m in cells and cells[m].mean is not None}
    if not present:
        return None
    total = sum(present.values())
    mean = sum(w * specs[m].goodness(cells[m].mean or 0.0) for m, w in present.items()) / total
    used = [cells[m] for m in present]
    return Cell(
        mean=mean,
        n=min(c.n for c in used),
        scale_max=1.0,
        invalid=sum(c.invalid for c in used),
        errors=sum(c.errors for c in used),
        skipped=sum(c.skipped for c in used),
    )


def weighted_spec(scale: float) -> MetricSpec:
    """The weighted aggregate's spec, on 0..`scale` (HEALTH-PARIKSHA's AGG: 0..2)."""
    return WEIGHTED_SPEC if scale == 1.0 else replace(WEIGHTED_SPEC, scale_max=scale)


def rescaled(cell: Cell, scale: float) -> Cell:
    """A 0..1 weighted cell reported on 0..`scale`: mean and interval multiplied."""
    if scale == 1.0:
        return cell

    def times(x: float | None) -> float | None:
        return None if x is None else x * scale

    return replace(
        cell, mean=times(cell.mean), ci_low=times(cell.ci_low), ci_high=times(cell.ci_high),
        scale_max=scale,
    )  # fmt: skip
