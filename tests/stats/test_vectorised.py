"""The faster statistics give today's numbers (#19): bootstrap and rank intervals equal to the
implementation they replace (copied below) to 1e-12 for the same seed (resampled sums are
matrix products since #27, so the last bit may differ from summing item by item), sampled sign-flip
p-values equal wherever sampling still applies, and the enumerated p-value of few items equal
to a brute-force count over every sign pattern."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from tests.stats.ranking import rank_intervals

from parakh.stats import bootstrap, paired
from parakh.stats.bootstrap import ItemScores, bootstrap_interval, percentile_interval
from parakh.stats.paired import paired_test, sign_flip_p_value
from parakh.stats.shared_draws import competition_ranks

# --- the implementation before #19 (parakh.stats at commit 70b378e), for comparison ----------


def _old_blocks(n_items: int, resamples: int, seed: int):
    rng = np.random.Generator(np.random.PCG64(seed))
    done = 0
    while done < resamples:
        size = min(200, resamples - done)
        yield rng.integers(0, n_items, size=(size, n_items))
        done += size


def _old_resampled(scores: ItemScores, index: np.ndarray) -> np.ndarray:
    sums, counts = scores.sums[index].sum(axis=1), scores.counts[index].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts
    present = counts > 0
    weight = np.where(present, scores.weights, 0.0)
    total = weight.sum(axis=-1)
    value = np.where(present, means, 0.0) @ scores.weights
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, value / total, np.nan)


def _old_interval(scores: ItemScores, seed: int, resamples: int = 1000) -> tuple[float, float]:
    draws = np.concatenate(
        [_old_resampled(scores, b) for b in _old_blocks(scores.n_items, resamples, seed)]
    )
    interval = percentile_interval(draws, 0.95)
    assert interval is not None
    return interval.low, interval.high


def _old_sign_flip(d: np.ndarray, seed: int, permutations: int) -> float:
    observed = abs(float(d.mean()))
    if observed == 0.0:
        return 1.0
    rng = np.random.Generator(np.random.PCG64(seed))
    at_least = done = 0
    tolerance = 1e-12 * max(1.0, observed)
    while done < permutations:
        size = min(500, permutations - done)
        signs = rng.integers(0, 2, size=(size, d.size)) * 2 - 1
        flipped = np.abs((signs * d).mean(axis=1))
        at_least += int((flipped >= observed - tolerance).sum())
        done += size
    return (at_least + 1) / (permutations + 1)


# --- bootstrap and rank intervals ----------------------------------------------------------


def _cases(n: int, rng: np.random.Generator) -> dict[str, ItemScores]:
    scores = np.round(rng.random(n) * 100, 4)
    some_unscored = (rng.random(n) > 0.1).astype(float)
    rows = rng.integers(1, 4, n).astype(float)  # several rows per question
    two = np.round(rng.random((n, 2)) * 2)
    two_counts = (rng.random((n, 2)) > 0.2).astype(float)
    return {
        "one row each": ItemScores.single(scores, np.ones(n)),
        "some unscored": ItemScores.single(scores * some_unscored, some_unscored),
        "several rows": ItemScores.single(scores * rows, rows),
        "one metric weighted": ItemScores(scores.reshape(-1, 1), np.ones((n, 1)), np.full(1, 0.4)),
        "two metrics": ItemScores(two * two_counts, two_counts, np.array([0.4, 0.15])),
    }


@pytest.mark.parametrize("n", [1, 2, 7, 60, 1001, 5000])
@pytest.mark.parametrize("seed", [0, 7, 2**63 + 5])
def test_intervals_equal_the_replaced_implementation(n: int, seed: int) -> None:
    for name, scores in _cases(n, np.random.default_rng(n)).items():
        if scores.point() is None:
            continue
        found = bootstrap_interval(scores, seed=seed, resamples=1000)
        assert found is not None
        old_low, old_high = _old_interval(scores, seed)
        assert abs(found.low - old_low) <= 1e-12 and abs(found.high - old_high) <= 1e-12, name


def test_intervals_do_not_depend_on_the_block_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    scores = _cases(3000, np.random.default_rng(1))["some unscored"]
    reference = bootstrap_interval(scores, seed=3, resamples=777)
    monkeypatch.setattr(bootstrap, "_BLOCK_DRAWS", 3000 * 7 + 5)
    assert bootstrap_interval(scores, seed=3, resamples=777) == reference
    assert reference is not None
    old_low, old_high = _old_interval(scores, 3, resamples=777)
    assert abs(reference.low - old_low) <= 1e-12 and abs(reference.high - old_high) <= 1e-12


def test_rank_intervals_equal_the_replaced_implementation() -> None:
    rng = np.random.default_rng(4)
    base = rng.random(800)
    scores = {
        f"m{i}": ItemScores.single(np.round(base + rng.normal(0, 0.3, 800), 3), np.ones(800))
        for i in range(5)
    }
    ranks = rank_intervals(scores, seed=12, resamples=1000)
    names = list(scores)
    draws = np.concatenate(
        [
            competition_ranks(np.stack([_old_resampled(scores[m], b) for m in names], axis=-1))
            for b in _old_blocks(800, 1000, 12)
        ]
    )
    for i, name in enumerate(names):
        low = int(np.quantile(draws[:, i], 0.025, method="lower"))
        high = int(np.quantile(draws[:, i], 0.975, method="higher"))
        assert (ranks[name].low, ranks[name].high) == (low, high)


# --- sign-flip p-values --------------------------------------------------------------------


def _brute_force_p(d: list[float]) -> float:
    """Every sign pattern, in plain Python: the share with |mean| reaching the observed one."""
    observed = abs(sum(d) / len(d))
    count = sum(
        abs(sum(s * x for s, x in zip(signs, d, strict=True)) / len(d)) >= observed - 1e-12
        for signs in itertools.product((-1, 1), repeat=len(d))
    )
    return count / 2 ** len(d)


@pytest.mark.parametrize("n", range(1, 13))
def test_few_items_enumerate_every_sign_pattern(n: int) -> None:
    rng = np.random.default_rng(n)
    for d in (
        rng.integers(-2, 3, n).astype(float),  # rubric differences: many ties
        np.round(rng.normal(0.3, 1.0, n), 4),
        np.full(n, 0.5),
    ):
        if d.mean() == 0.0:
            continue
        expected = _brute_force_p(list(d))
        assert sign_flip_p_value(d, seed=1, permutations=5000) == expected
        assert sign_flip_p_value(d, seed=1, permutations=2**n) == expected  # the edge: 2^n


def test_enumerated_p_values_are_whole_counts_over_every_pattern() -> None:
    d = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])  # eight items: all 256 patterns
    p = sign_flip_p_value(d, seed=0, permutations=5000)
    assert p * 256 == round(p * 256) and p == 2 / 256  # the observed pattern and its mirror


@pytest.mark.parametrize("n", [3, 9, 13, 40, 257, 1001, 4099])
@pytest.mark.parametrize("permutations", [5, 777, 5000])
def test_sampled_p_values_equal_the_replaced_implementation(n: int, permutations: int) -> None:
    if 2**n <= permutations:
        pytest.skip("enumerated, not sampled")
    rng = np.random.default_rng(n + permutations)
    for d in (
        rng.integers(-2, 3, n).astype(float),
        np.round(rng.normal(0.02, 1.0, n), 4),
        np.round(rng.normal(0.5, 30.0, n), 4),  # chrF-sized differences
        rng.integers(0, 2, n).astype(float) - rng.integers(0, 2, n),
    ):
        for seed in (1, 2**64 - 3):
            expected = _old_sign_flip(d, seed, permutations)
            assert sign_flip_p_value(d, seed=seed, permutations=permutations) == expected


def test_sampling_does_not_depend_on_the_chunk_size(monkeypatch: pytest.MonkeyPatch) -> None:
    d = np.round(np.random.default_rng(5).normal(0.05, 1.0, 333), 3)
    reference = sign_flip_p_value(d, seed=4, permutations=5000)
    for draws in (2, 333 * 2, 333 * 7 + 1, 10**7):
        monkeypatch.setattr(paired, "_CHUNK_SIGNS", draws)
        assert sign_flip_p_value(d, seed=4, permutations=5000) == reference


def test_paired_test_equals_the_replaced_implementation() -> None:
    rng = np.random.default_rng(8)
    b = np.round(rng.random(500) * 100, 4)
    a = np.round(b + rng.normal(0.5, 10, 500), 4)
    result = paired_test(a, b, seed=42)
    d = a - b
    assert result.interval is not None
    low, high = _old_interval(ItemScores.single(d, np.ones_like(d)), 42)
    assert abs(result.interval.low - low) <= 1e-12 and abs(result.interval.high - high) <= 1e-12
    assert result.p_value == _old_sign_flip(d, 43, 5000)
