"""Seeded bootstrap intervals: identical on re-runs, independent of block size and of other
cells, and the weighted statistic equals its definition."""

from __future__ import annotations

import numpy as np
import pytest

from parakh.stats import bootstrap
from parakh.stats.bootstrap import (
    ItemScores,
    bootstrap_interval,
    bootstrap_mean_interval,
    multiplicities,
)

VALUES = [0.0, 0.5, 1.0, 1.0, 0.25, 0.75, 0.5, 0.0, 1.0, 0.5]


def test_same_inputs_and_seed_give_identical_intervals() -> None:
    first = bootstrap_mean_interval(VALUES, seed=11)
    again = bootstrap_mean_interval(list(VALUES), seed=11)
    assert first == again
    assert first is not None and first.low < np.mean(VALUES) < first.high


def test_a_different_seed_gives_a_different_draw() -> None:
    assert bootstrap_mean_interval(VALUES, seed=1) != bootstrap_mean_interval(VALUES, seed=2)


def test_interval_does_not_depend_on_block_size(monkeypatch: pytest.MonkeyPatch) -> None:
    reference = bootstrap_mean_interval(VALUES, seed=5, resamples=1000)
    monkeypatch.setattr(bootstrap, "_BLOCK_DRAWS", 7 * len(VALUES))
    assert bootstrap_mean_interval(VALUES, seed=5, resamples=1000) == reference


def test_derived_seeds_depend_on_every_part_of_the_key() -> None:
    seeds = {
        bootstrap.derive_seed(0, "alpha", "chrf", "q1"),
        bootstrap.derive_seed(0, "alpha", "chrf", "q2"),
        bootstrap.derive_seed(0, "beta", "chrf", "q1"),
        bootstrap.derive_seed(1, "alpha", "chrf", "q1"),
    }
    assert len(seeds) == 4
    assert bootstrap.derive_seed(0, "a", "b") == bootstrap.derive_seed(0, "a", "b")


def test_degenerate_inputs() -> None:
    assert bootstrap_mean_interval([], seed=0) is None
    single = bootstrap_mean_interval([0.7], seed=0)
    assert single is not None and single.low == single.high == pytest.approx(0.7)
    constant = bootstrap_mean_interval([2.0] * 5, seed=0)
    assert constant is not None and constant.low == constant.high == 2.0


def test_wider_confidence_gives_a_wider_interval() -> None:
    narrow = bootstrap_mean_interval(VALUES, seed=3, confidence=0.8)
    wide = bootstrap_mean_interval(VALUES, seed=3, confidence=0.99)
    assert narrow is not None and wide is not None
    assert wide.low <= narrow.low and wide.high >= narrow.high


def test_weighted_statistic_is_the_weighted_mean_of_metric_means() -> None:
    # two metrics on 0..1; item 2 has no score on metric B
    sums = np.array([[1.0, 0.5], [0.0, 0.0], [1.0, 1.0]])
    counts = np.array([[1, 1], [1, 0], [1, 1]], dtype=float)
    scores = ItemScores(sums, counts, np.array([0.75, 0.25]))
    mean_a, mean_b = 2 / 3, 1.5 / 2
    assert scores.point() == pytest.approx(0.75 * mean_a + 0.25 * mean_b)
    # metric B unscored everywhere: its weight drops out rather than counting as zero
    only_a = ItemScores(sums, np.array([[1, 0], [1, 0], [1, 0]], dtype=float), scores.weights)
    assert only_a.point() == pytest.approx(mean_a)
    interval = bootstrap_interval(scores, seed=4)
    assert interval is not None and interval.low <= scores.point() <= interval.high  # type: ignore[operator]


def test_resampling_is_by_item_with_all_its_rows() -> None:
    """Several rows of one question move together: the mean is rows-weighted."""
    scores = ItemScores.single(np.array([3.0, 0.0]), np.array([3.0, 1.0]))
    assert scores.point() == pytest.approx(0.75)
    drawn = multiplicities(np.array([[0, 0], [1, 1], [0, 1]]))
    draws = scores.of_totals(drawn @ scores.sums, drawn @ scores.counts)
    assert draws.tolist() == pytest.approx([1.0, 0.0, 0.75])
