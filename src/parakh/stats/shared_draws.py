"""Many statistics from one draw: intervals of every cell over the same items from one matrix
of bootstrap resamples, and every paired test over the same items from one matrix of sign
patterns (drawing per cell and pair costs billions of random numbers at a study's size).

- a bootstrap resample is the multiplicity of each item (how often the draw picked it), so each
  cell's resampled sums and counts are one product of the (resamples, items) multiplicities
  with the (items, cells) sums and counts;
- every resample ranks all models (rank 1 the best in the metric's direction); a model's rank
  interval is the central one of its ranks (`ranks_of_draws`), telling which places on a
  leaderboard the data can tell apart;
- a sign pattern's flipped sum of a pair's differences is one product of the (patterns, items)
  signs with the (items, pairs) differences; an item a pair does not share has difference 0,
  which no sign changes, so one pattern matrix over the question set serves every pair.

For the same seed a cell's interval equals `bootstrap_interval(scores, seed=seed)` and the one
gathered item by item from `bootstrap.resample_blocks`, up to the order of additions (1e-12); a
pair's p-value equals `sign_flip_p_value(d, seed=seed + 1)` (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from parakh.stats.bootstrap import ItemScores, percentile_interval, resampled, resampled_totals
from parakh.stats.paired import PairedResult, sampled_at_least, sign_flip_p_value, threshold_of

# (items x tests) differences and masks a batch of paired tests holds, at most: 8 bytes each.
_BATCH_VALUES = 16 << 20


def shared_draws(
    cells: Sequence[ItemScores], *, seed: int, resamples: int
) -> list[np.ndarray | None]:
    """Each cell's statistic on every resample of their common items (None for a cell with no
    score, which has no interval, as in `bootstrap_interval`)."""
    n_items = {cell.n_items for cell in cells}
    if len(n_items) != 1:
        raise ValueError(f"cells are not on the same items: {sorted(n_items)}")
    if n_items == {0}:
        return [None] * len(cells)
    rows = [cell.resampling_rows() for cell in cells]
    if len({k for _, _, k in rows}) != 1:
        raise ValueError(f"cells have different samples per item: {sorted({k for *_, k in rows})}")
    sums, counts = resampled_totals(
        np.hstack([sums for sums, _, _ in rows]),
        np.hstack([counts for _, counts, _ in rows]),
        seed=seed,
        resamples=resamples,
        samples=rows[0][2],
    )
    found: list[np.ndarray | None] = []
    start = 0
    for cell in cells:
        stop = start + cell.sums.shape[1]
        scored = cell.point() is not None
        found.append(cell.of_totals(sums[:, start:stop], counts[:, start:stop]) if scored else None)
        start = stop
    return found


@dataclass(frozen=True)
class RankInterval:
    """A model's rank on the point estimates (1 is best) and its bootstrap interval."""

    rank: int
    low: int
    high: int


def competition_ranks(values: np.ndarray, *, higher_is_better: bool = True) -> np.ndarray:
    """1 + the number of strictly better values, per column of the last axis ("1224" ranking).

    Better is higher, or lower when `higher_is_better` is False. NaN (no score) ranks below
    every scored value either way.
    """
    signed = values if higher_is_better else -values
    filled = np.where(np.isnan(signed), -np.inf, signed)
    better = filled[..., None, :] > filled[..., :, None]
    return 1 + better.sum(axis=-1)


def ranks_of_draws(
    names: list[str],
    points: np.ndarray,
    draws: np.ndarray,
    *,
    confidence: float,
    higher_is_better: bool,
) -> dict[str, RankInterval]:
    """Rank intervals of `names` from their point values and their (resamples, names)
    statistics on the same bootstrap resamples."""
    point_ranks = competition_ranks(points, higher_is_better=higher_is_better)
    ranks = competition_ranks(draws, higher_is_better=higher_is_better)
    tail = (1.0 - confidence) / 2.0
    return {
        name: RankInterval(
            rank=int(point_ranks[i]),
            low=int(np.quantile(ranks[:, i], tail, method="lower")),
            high=int(np.quantile(ranks[:, i], 1.0 - tail, method="higher")),
        )
        for i, name in enumerate(names)
    }


@dataclass(frozen=True)
class PairedTest:
    """One paired test: model rows `a` and `b` of one of the value matrices (`group`)."""

    group: int
    a: int
    b: int
    higher_is_better: bool


def shared_paired_tests(
    values: Sequence[np.ndarray],
    tests: Sequence[PairedTest],
    *,
    seed: int,
    permutations: int,
    resamples: int,
    confidence: float,
) -> list[PairedResult]:
    """`paired_test` of every test's model a against model b, on the items where both have a
    value (each of `values` is (models, items), NaN where a model has none; every test needs
    at least 2 common items; all matrices are on the same items): the intervals from one
    resampling of the items drawn from `seed`, the sampled p-values from one matrix of sign
    patterns drawn from `seed + 1`. A test with 2^n at most `permutations` gets its exact
    p-value by enumeration, as in `sign_flip_p_value`. Tests go in as few batches as hold under
    `_BATCH_VALUES`, each on the same draws: a study's differences would take gigabytes."""
    n_items = values[0].shape[1] if values else 0
    batches = -(-2 * n_items * len(tests) // _BATCH_VALUES) or 1  # each batch draws anew
    batch = -(-len(tests) // batches) or 1
    results: list[PairedResult] = []
    for start in range(0, len(tests), batch):
        chunk = tests[start : start + batch]
        differences = np.zeros((n_items, 2 * len(chunk)))  # then each test's item mask
        for k, test in enumerate(chunk):
            a, b = values[test.group][test.a], values[test.group][test.b]
            common = ~np.isnan(a) & ~np.isnan(b)
            differences[common, k] = a[common] - b[common]
            differences[:, len(chunk) + k] = common
        results += _paired_batch(
            values, chunk, differences, seed, permutations, resamples, confidence
        )
    return results


def _paired_batch(
    values: Sequence[np.ndarray],
    tests: Sequence[PairedTest],
    both: np.ndarray,
    seed: int,
    permutations: int,
    resamples: int,
    confidence: float,
) -> list[PairedResult]:
    """`shared_paired_tests` of `tests`, given their (items, tests) differences beside their
    (items, tests) masks as 0/1 in `both`."""
    width = len(tests)
    differences, masks = both[:, :width], both[:, width:] > 0
    totals = resampled(both, seed=seed, resamples=resamples)
    sums, counts = totals[:, :width], totals[:, width:]
    with np.errstate(invalid="ignore", divide="ignore"):  # each test's mean over its items
        draws = np.where(counts > 0, sums / counts, np.nan)
    n = masks.sum(axis=0)
    observed = np.array([abs(float(differences[masks[:, k], k].mean())) for k in range(n.size)])
    sampled = np.flatnonzero((n >= 64) | (2.0 ** np.minimum(n, 63) > permutations))
    thresholds = np.array([threshold_of(float(o)) for o in observed[sampled]])
    at_least = sampled_at_least(
        differences[:, sampled], thresholds, n[sampled], seed=seed + 1, permutations=permutations
    )
    p_values = ((at_least + 1) / (permutations + 1)).tolist()
    p_sampled = dict(zip(sampled.tolist(), p_values, strict=True))
    results = []
    for k, test in enumerate(tests):
        common = masks[:, k]
        d = differences[common, k]
        p_value = p_sampled.get(k) if observed[k] != 0.0 else None
        results.append(
            PairedResult(
                n=int(d.size),
                mean_a=float(values[test.group][test.a, common].mean()),
                mean_b=float(values[test.group][test.b, common].mean()),
                difference=float(d.mean()),
                interval=percentile_interval(draws[:, k], confidence),
                p_value=p_value
                if p_value is not None  # else exact, or no difference at all (1.0)
                else sign_flip_p_value(d, seed=seed + 1, permutations=permutations),
                higher_is_better=test.higher_is_better,
            )
        )
    return results
