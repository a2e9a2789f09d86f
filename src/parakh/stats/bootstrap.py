"""Seeded bootstrap confidence intervals, resampling items (questions), not rows.

Each interval gets its own seed, derived from the run seed and the key of what it describes
(model, metric, slice), so an interval does not change when other cells are added, removed or
computed in another order. Resampling is by item: every row of a resampled question comes
along, which keeps a question's metrics together for the weighted aggregate and for paired
comparisons between models.

The resample indices of a seed are numpy's `integers(0, n_items)` draws from PCG64(seed), in
blocks whose size never changes them. A one-metric statistic (every leaderboard cell but the
weighted aggregate) gathers its sums with `np.take` and skips gathering counts that are the same
for every item: the same numbers as the general formula, bit for bit, in a fraction of the time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from parakh.hashing import sha256_obj

DEFAULT_RESAMPLES = 1000
DEFAULT_CONFIDENCE = 0.95
# Resamples drawn per block, at most, and at most about _BLOCK_ITEMS indices per block: bounds
# memory at block x items x metrics floats (and keeps a block in cache at 100,000 items).
_BLOCK = 200
_BLOCK_ITEMS = 1 << 20


def derive_seed(seed: int, *key: str) -> int:
    """A 64-bit seed for one statistic, from the run seed and the statistic's key."""
    return int(sha256_obj([seed, *key])[:16], 16)


@dataclass(frozen=True)
class Interval:
    """A two-sided percentile interval at `confidence`."""

    low: float
    high: float


def resample_blocks(n_items: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Yield index arrays of shape (block, n_items): `resamples` bootstrap draws in all."""
    rng = np.random.Generator(np.random.PCG64(seed))
    rows = max(1, min(_BLOCK, _BLOCK_ITEMS // max(1, n_items)))
    done = 0
    while done < resamples:
        size = min(rows, resamples - done)
        yield rng.integers(0, n_items, size=(size, n_items))
        done += size


def percentile_interval(values: np.ndarray, confidence: float) -> Interval | None:
    """The central `confidence` interval of the finite `values` (None if there are none)."""
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return None
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(finite, [tail, 1.0 - tail])
    return Interval(float(low), float(high))


@dataclass(frozen=True)
class ItemScores:
    """Per-item score sums and counts of one statistic: rows are items, columns metrics.

    The statistic is the weighted mean, over metrics, of each metric's mean over items
    (sum of sums / sum of counts), with weights renormalised over the metrics that have a
    score; a single metric with weight 1 is a plain mean over scored rows.
    """

    sums: np.ndarray  # (items, metrics)
    counts: np.ndarray  # (items, metrics)
    weights: np.ndarray  # (metrics,)

    @classmethod
    def single(cls, sums: np.ndarray, counts: np.ndarray) -> ItemScores:
        return cls(sums.reshape(-1, 1), counts.reshape(-1, 1), np.ones(1))

    @property
    def n_items(self) -> int:
        return int(self.sums.shape[0])

    def of_totals(self, sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Statistic per leading row of (..., metrics) totals; NaN where no metric is scored."""
        with np.errstate(invalid="ignore", divide="ignore"):
            means = sums / counts
        present = counts > 0
        weight = np.where(present, self.weights, 0.0)
        total = weight.sum(axis=-1)
        value = np.where(present, means, 0.0) @ self.weights
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, value / total, np.nan)

    def point(self) -> float | None:
        value = float(self.of_totals(self.sums.sum(axis=0), self.counts.sum(axis=0)))
        return None if np.isnan(value) else value

    @cached_property
    def _single(self) -> bool:
        """One metric of weight 1: the statistic is the sum of sums over the sum of counts."""
        return self.sums.shape[1] == 1 and float(self.weights[0]) == 1.0

    @cached_property
    def _same_count(self) -> float | None:
        """The count every item has, when they all have the same (one row each, mostly)."""
        counts = self.counts[:, 0]
        return float(counts[0]) if counts.size and bool((counts == counts[0]).all()) else None

    def resampled(self, index: np.ndarray) -> np.ndarray:
        """The statistic on each resample of an index block of shape (block, n_items)."""
        if not self._single:
            return self.of_totals(self.sums[index].sum(axis=1), self.counts[index].sum(axis=1))
        # The general formula with one weight of 1 is sums / counts where counts > 0, NaN
        # elsewhere (x * 1.0 and x / 1.0 are exact). Counts are whole numbers, so any order of
        # adding them gives the same total.
        sums = np.take(self.sums[:, 0], index).sum(axis=1)
        same = self._same_count
        if same is not None:
            counts = np.full(sums.shape, same * index.shape[1])
        else:
            counts = np.take(self.counts[:, 0], index).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(counts > 0, sums / counts, np.nan)


def bootstrap_interval(
    scores: ItemScores,
    *,
    seed: int,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Interval | None:
    """Percentile bootstrap interval of `scores`' statistic, resampling items."""
    if scores.n_items == 0 or scores.point() is None:
        return None
    draws = np.concatenate(
        [scores.resampled(block) for block in resample_blocks(scores.n_items, resamples, seed)]
    )
    return percentile_interval(draws, confidence)


def bootstrap_mean_interval(
    values: list[float] | np.ndarray,
    *,
    seed: int,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Interval | None:
    """Percentile bootstrap interval of the mean of `values` (one value per item)."""
    array = np.asarray(values, dtype=float)
    return bootstrap_interval(
        ItemScores.single(array, np.ones_like(array)),
        seed=seed,
        resamples=resamples,
        confidence=confidence,
    )


def stratified_macro_interval(
    strata: Sequence[Sequence[float] | np.ndarray],
    *,
    seed: int,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
) -> tuple[float, Interval | None] | None:
    """The unweighted mean over strata of each stratum's mean (a macro average: every dataset
    counts once, whatever its size), and its percentile bootstrap interval, resampling items
    within each stratum independently. Empty strata are left out; None if all are empty."""
    kept = [np.asarray(values, dtype=float) for values in strata if len(values) > 0]
    if not kept:
        return None
    point = float(np.mean([values.mean() for values in kept]))
    draws = np.zeros(resamples)
    for i, values in enumerate(kept):
        stratum_seed = derive_seed(seed, "stratum", str(i))
        blocks = resample_blocks(values.size, resamples, stratum_seed)
        draws += np.concatenate([values[block].mean(axis=1) for block in blocks])
    return point, percentile_interval(draws / len(kept), confidence)
