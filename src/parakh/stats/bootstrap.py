"""Seeded bootstrap confidence intervals, resampling items (questions), not rows.

Every row of a resampled question comes along, which keeps a question's metrics together. The
indices of a seed are numpy's `integers(0, n_items)` draws from PCG64(seed), in blocks whose
size never changes them; a resample is read as each item's multiplicity, so any statistic over
the same items is one matrix product with its per-item sums and counts (`resampled_totals`).

With k samples per item (`generation.samples`) the bootstrap has two levels: the items are
drawn as above, then each drawn copy of an item draws k of its samples with replacement, from
PCG64(derive_seed(seed, "samples")) (`integers(0, k)`, k per copy, copies in draw order). A
resample is then each (item, sample)'s multiplicity; with k = 1 it is the one-level draw.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from parakh.hashing import sha256_obj

DEFAULT_RESAMPLES = 1000
DEFAULT_CONFIDENCE = 0.95
# Resamples and indices per block, at most: bounds memory at block x items x metrics floats.
_BLOCK = 200
_BLOCK_ITEMS = 1 << 20
# Indices per block of `resampled_totals`: a block's multiplicities are 16 MB at most.
_BLOCK_DRAWS = 2 << 20
# Resamples per matrix product of `resampled`. BLAS sums in an order that depends on the shape
# of the product (on some CPUs), so every product has this many rows, the last padded with
# zeros: a resample's totals never depend on the block it was drawn in.
_PRODUCT_ROWS = 16


def derive_seed(seed: int, *key: str) -> int:
    """A 64-bit seed for one statistic, from the run seed and the statistic's key."""
    return int(sha256_obj([seed, *key])[:16], 16)


@dataclass(frozen=True)
class Interval:
    """A two-sided percentile interval at `confidence`."""

    low: float
    high: float


def resample_blocks(
    n_items: int, resamples: int, seed: int, indices: int = _BLOCK_ITEMS, most: int = _BLOCK
) -> Iterator[np.ndarray]:
    """Yield index arrays of shape (block, n_items): `resamples` bootstrap draws in all, at
    most `most` resamples and about `indices` indices a block (which never changes them)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    rows = max(1, min(most, indices // max(1, n_items)))
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
    """Per-item score sums and counts (items x metrics) of one statistic: the weighted mean
    over metrics of each metric's mean over items, weights renormalised over scored metrics."""

    sums: np.ndarray  # (items, metrics)
    counts: np.ndarray  # (items, metrics)
    weights: np.ndarray  # (metrics,)
    # (items, samples, metrics) sums and counts of each sample, summing to `sums` and
    # `counts`, when items have several (the bootstrap then resamples them too)
    per_sample: tuple[np.ndarray, np.ndarray] | None = None

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

    def resampling_rows(self) -> tuple[np.ndarray, np.ndarray, int]:
        """The rows a bootstrap resamples: (items x samples, metrics) sums and counts, and
        the samples per item (the items' own, 1, without `per_sample`)."""
        if self.per_sample is None:
            return self.sums, self.counts, 1
        sums, counts = self.per_sample
        k = sums.shape[1]
        return sums.reshape(-1, sums.shape[2]), counts.reshape(-1, counts.shape[2]), k

    def point(self) -> float | None:
        value = float(self.of_totals(self.sums.sum(axis=0), self.counts.sum(axis=0)))
        return None if np.isnan(value) else value


def multiplicities(block: np.ndarray) -> np.ndarray:
    """How often each item is drawn in each resample of a (block, items) index block."""
    rows, n_items = block.shape
    offsets = block + (np.arange(rows) * n_items)[:, None]
    counts = np.bincount(offsets.ravel(), minlength=rows * n_items)
    return counts.reshape(rows, n_items).astype(float)


def sample_multiplicities(block: np.ndarray, samples: int, rng: np.random.Generator) -> np.ndarray:
    """How often each (item, sample), item-major, is drawn in each resample of a (block, items)
    index block, each drawn copy of an item drawing `samples` of its samples from `rng`."""
    rows, n_items = block.shape
    picks = rng.integers(0, samples, size=(rows, n_items, samples))
    units = (
        (block * samples)[:, :, None] + picks + (np.arange(rows) * n_items * samples)[:, None, None]
    )
    counts = np.bincount(units.ravel(), minlength=rows * n_items * samples)
    return counts.reshape(rows, n_items * samples).astype(float)


def resampled_totals(
    sums: np.ndarray, counts: np.ndarray, *, seed: int, resamples: int, samples: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """The (resamples, columns) totals of (items x samples, columns) `sums` and `counts` over
    each resample drawn from `seed` (`resampled`)."""
    totals = resampled(np.hstack([sums, counts]), seed=seed, resamples=resamples, samples=samples)
    return totals[:, : sums.shape[1]], totals[:, sums.shape[1] :]


def resampled(columns: np.ndarray, *, seed: int, resamples: int, samples: int = 1) -> np.ndarray:
    """The (resamples, columns) totals of (items x samples, columns) values, item-major, over
    each resample drawn from `seed` (`resample_blocks`, in larger blocks of whole products;
    with samples, each copy's samples drawn too: `sample_multiplicities`)."""
    n_items = columns.shape[0] // samples
    rows = max(1, _BLOCK_DRAWS // max(1, n_items * samples) // _PRODUCT_ROWS) * _PRODUCT_ROWS
    blocks = resample_blocks(n_items, resamples, seed, rows * n_items, rows)
    if samples == 1:
        return np.concatenate([_products(multiplicities(block), columns) for block in blocks])
    within = np.random.Generator(np.random.PCG64(derive_seed(seed, "samples")))
    counts = (sample_multiplicities(block, samples, within) for block in blocks)
    return np.concatenate([_products(block_counts, columns) for block_counts in counts])


def _products(counts: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """`counts @ columns`, `_PRODUCT_ROWS` rows of `counts` a product."""
    pieces = []
    for start in range(0, len(counts), _PRODUCT_ROWS):
        piece = counts[start : start + _PRODUCT_ROWS]
        if len(piece) < _PRODUCT_ROWS:
            piece = np.vstack([piece, np.zeros((_PRODUCT_ROWS - len(piece), counts.shape[1]))])
        pieces.append(piece @ columns)
    return np.concatenate(pieces)[: len(counts)]


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
    sums, counts, samples = scores.resampling_rows()
    sums, counts = resampled_totals(sums, counts, seed=seed, resamples=resamples, samples=samples)
    return percentile_interval(scores.of_totals(sums, counts), confidence)


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
