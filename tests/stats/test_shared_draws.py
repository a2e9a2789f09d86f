"""Shared draws (#19; the only engine since #27) read every cell and pair off one resampling and
one matrix of sign patterns: for the same seed each cell's interval is the one gathered item by
item from the same draws, and what one cell or one pair alone gives, to 1e-12; sampled and
enumerated p-values are exact; a pair that does not share every item is still a sign-flip test
on its own items."""

from __future__ import annotations

import numpy as np
import pytest

from parakh.stats import shared_draws as shared_draws_module
from parakh.stats.bootstrap import (
    ItemScores,
    bootstrap_interval,
    multiplicities,
    percentile_interval,
    resample_blocks,
    resampled_totals,
)
from parakh.stats.paired import paired_test, sampled_at_least, sign_flip_p_value, threshold_of
from parakh.stats.shared_draws import PairedTest, shared_draws, shared_paired_tests

SEED = 20261202


def _cells(rng: np.random.Generator, n: int) -> list[ItemScores]:
    """One-metric cells (one row per item, some items with two rows or none) and a weighted
    three-metric cell with unscored items."""
    once = [ItemScores.single(rng.random(n), np.ones(n)) for _ in range(3)]
    counts = rng.integers(0, 3, n).astype(float)
    uneven = ItemScores.single(rng.random(n) * counts, counts)
    weighted = ItemScores(
        rng.random((n, 3)), rng.integers(0, 2, (n, 3)).astype(float), np.array([0.5, 0.3, 0.2])
    )
    discrete = ItemScores.single(rng.integers(1, 6, n).astype(float), np.ones(n))
    return [*once, uneven, weighted, discrete]


def _gathered(cell: ItemScores, seed: int, resamples: int) -> np.ndarray:
    """The cell's statistic on each resample, summed item by item (no matrix product)."""
    blocks = resample_blocks(cell.n_items, resamples, seed)
    return np.concatenate(
        [cell.of_totals(cell.sums[b].sum(axis=1), cell.counts[b].sum(axis=1)) for b in blocks]
    )


@pytest.mark.parametrize("n", [1, 7, 250, 4001])
def test_shared_intervals_equal_each_cells_own_bootstrap_for_the_same_seed(n: int) -> None:
    cells = _cells(np.random.default_rng(n), n)
    shared = shared_draws(cells, seed=SEED, resamples=1000)
    for cell, draws in zip(cells, shared, strict=True):
        interval = None if draws is None else percentile_interval(draws, 0.95)
        own = bootstrap_interval(cell, seed=SEED, resamples=1000, confidence=0.95)
        if own is None:
            assert interval is None
            continue
        gathered = percentile_interval(_gathered(cell, SEED, 1000), 0.95)
        assert interval is not None and gathered is not None
        for expected in (own, gathered):
            assert interval.low == pytest.approx(expected.low, abs=1e-12)
            assert interval.high == pytest.approx(expected.high, abs=1e-12)


def test_multiplicities_count_each_draw_and_totals_follow_the_same_stream() -> None:
    block = np.array([[0, 0, 2], [1, 2, 2]])
    assert multiplicities(block).tolist() == [[2, 0, 1], [0, 1, 2]]
    values = np.arange(5.0)[:, None]
    sums, counts = resampled_totals(values, np.ones_like(values), seed=SEED, resamples=300)
    drawn = np.concatenate(list(resample_blocks(5, 300, SEED)))
    assert sums[:, 0].tolist() == values[drawn, 0].sum(axis=1).tolist()
    assert counts[:, 0].tolist() == [5.0] * 300


@pytest.mark.parametrize("n", [13, 100, 2001])
def test_sampled_counts_equal_the_per_pair_count_for_the_same_seed(n: int) -> None:
    rng = np.random.default_rng(n)
    differences = np.stack(
        [rng.normal(0.05, 1, n), rng.integers(-2, 3, n).astype(float), np.full(n, 0.25)], axis=1
    )
    observed = np.abs(differences.mean(axis=0))
    thresholds = np.array([threshold_of(float(o)) for o in observed])
    counts = np.full(3, n)
    shared = sampled_at_least(differences, thresholds, counts, seed=SEED, permutations=3000)
    signs = np.random.Generator(np.random.PCG64(SEED)).integers(0, 2, size=(3000, n)) * 2 - 1
    for k in range(3):  # numpy's own draws of the same patterns, counted pair by pair
        own = (np.abs((signs * differences[:, k]).mean(axis=1)) >= thresholds[k]).sum()
        assert shared[k] == own


def _tests(values: np.ndarray) -> list[PairedTest]:
    models = values.shape[0]
    return [PairedTest(0, a, b, True) for a in range(models) for b in range(a + 1, models)]


@pytest.mark.parametrize("n", [8, 12, 13, 3000])
def test_complete_pairs_equal_paired_test_for_the_same_seed(n: int) -> None:
    """n = 8 and 12 enumerate (2^n <= 5000), 13 and 3000 sample; ties of discrete scores."""
    rng = np.random.default_rng(n)
    values = np.stack([rng.random(n), rng.random(n) + 0.02, rng.integers(0, 3, n) / 2.0])
    results = shared_paired_tests(
        [values], _tests(values), seed=SEED, permutations=5000, resamples=1000, confidence=0.95
    )
    for test, shared in zip(_tests(values), results, strict=True):
        own = paired_test(
            values[test.a], values[test.b], seed=SEED, permutations=5000, resamples=1000
        )
        assert shared.p_value == own.p_value
        assert (shared.n, shared.mean_a, shared.mean_b, shared.difference) == (
            own.n, own.mean_a, own.mean_b, own.difference
        )  # fmt: skip
        assert own.interval is not None and shared.interval is not None
        assert shared.interval.low == pytest.approx(own.interval.low, abs=1e-12)
        assert shared.interval.high == pytest.approx(own.interval.high, abs=1e-12)


def test_tests_in_batches_equal_tests_all_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A study's tests go a batch at a time, each on the same draws: the batches change no
    p-value, and no interval beyond the order of additions."""
    rng = np.random.default_rng(3)
    values = rng.random((5, 300))
    values[3, 250:] = np.nan
    tests = _tests(values)
    run = dict(seed=SEED, permutations=2000, resamples=500, confidence=0.95)
    whole = shared_paired_tests([values], tests, **run)  # type: ignore[arg-type]
    monkeypatch.setattr(shared_draws_module, "_BATCH_VALUES", 2 * 300 * 3)  # 3 tests a batch
    batched = shared_paired_tests([values], tests, **run)  # type: ignore[arg-type]
    for one, other in zip(whole, batched, strict=True):
        assert (one.n, one.difference, one.p_value) == (other.n, other.difference, other.p_value)
        assert one.interval is not None and other.interval is not None
        assert one.interval.low == pytest.approx(other.interval.low, abs=1e-12)
        assert one.interval.high == pytest.approx(other.interval.high, abs=1e-12)


def test_a_pair_on_part_of_the_items_is_tested_on_its_own_items() -> None:
    """Items a pair does not share have difference 0 (no sign changes them): the test counts
    only its own items, and few shared items are still enumerated exactly."""
    rng = np.random.default_rng(5)
    n = 400
    values = np.stack([rng.random(n) + 0.3, rng.random(n), rng.random(n)])
    values[1, 100:] = np.nan  # model 1 has 100 items
    values[2, 6:] = np.nan  # model 2 has 6: 2^6 patterns, enumerated
    tests = _tests(values)
    results = shared_paired_tests(
        [values], tests, seed=SEED, permutations=5000, resamples=1000, confidence=0.95
    )
    assert [r.n for r in results] == [100, 6, 6]
    own_items = values[0, :100] - values[1, :100]
    assert results[0].difference == pytest.approx(own_items.mean())
    assert results[0].p_value < 0.01  # a shift of 0.3 on 100 items
    for k, test in enumerate(tests[1:], start=1):
        d = values[test.a, :6] - values[test.b, :6]
        assert results[k].p_value == sign_flip_p_value(d, seed=0, permutations=5000)


def test_null_differences_give_p_values_near_uniform() -> None:
    """Under exchangeable signs a valid test rejects at 5% about 5% of the time."""
    rng = np.random.default_rng(11)
    p_values = []
    for s in range(300):
        values = rng.random((2, 60))
        values[1] = values[0] + rng.choice([-1.0, 1.0], 60) * rng.random(60)
        tests = _tests(values)
        found = shared_paired_tests(
            [values], tests, seed=s, permutations=400, resamples=100, confidence=0.9
        )
        p_values.append(found[0].p_value)
    assert 0.01 < np.mean(np.array(p_values) <= 0.05) < 0.1
