"""A weighted resample of agreement statistics equals the statistic on the expanded data."""

from __future__ import annotations

import numpy as np
import pytest

from parakh.stats import agreement as stats

GRADES = [0.0, 1.0, 2.0, 3.0]
Pairs = tuple[np.ndarray, np.ndarray, np.ndarray]  # judge, human, item index of each pair


@pytest.fixture
def pairs() -> Pairs:
    rng = np.random.default_rng(7)
    items = list(range(30)) + [3, 7, 7]  # repeated ratings of 2 items
    judge = rng.integers(0, 4, size=len(items)).astype(float)
    for k, item in enumerate(items):  # one judge score per item
        judge[k] = judge[items.index(item)]
    human = np.clip(judge + rng.integers(-1, 2, size=len(items)), 0, 3)
    return judge, human, np.asarray(items)


def test_weighted_draws_equal_the_statistics_of_the_expanded_data(pairs: Pairs) -> None:
    x, y, item = pairs
    weights = stats.item_weights(30, 40, seed=3)
    w = weights[:, item]
    confusions = stats.weighted_confusions(x, y, GRADES, w)
    draws = {
        "percent": stats.weighted_percent_agreement(x, y, w),
        "kappa": stats.kappa_of_confusions(confusions, None),
        "kappa_linear": stats.kappa_of_confusions(confusions, "linear"),
        "spearman": stats.weighted_spearman(x, y, w),
        "kendall": stats.weighted_kendall_tau(x, y, w),
    }
    for b, counts in enumerate(weights):
        keep = np.repeat(np.arange(x.size), counts[item].astype(int))
        judge, human = x[keep], y[keep]
        expected = {
            "percent": stats.percentage_agreement(judge, human),
            "kappa": stats.cohen_kappa(judge, human, labels=GRADES),
            "kappa_linear": stats.cohen_kappa(judge, human, labels=GRADES, weights="linear"),
            "spearman": stats.spearman(judge, human),
            "kendall": stats.kendall_tau(judge, human),
        }
        for name, value in expected.items():
            assert draws[name][b] == pytest.approx(value, abs=1e-12, nan_ok=True), (name, b)


def test_weighted_alpha_equals_alpha_of_the_repeated_units() -> None:
    units = np.array([[0, 1, 2, 3, 2, np.nan], [0, 2, 2, 3, 1, 1], [np.nan, 1, 2, 2, np.nan, 0]])
    weights = stats.item_weights(units.shape[1], 25, seed=11)
    draws = stats.weighted_alpha(units, weights, np.asarray(GRADES), "ordinal")
    for b, counts in enumerate(weights):
        expanded = np.repeat(units, counts.astype(int), axis=1)
        expected = stats.krippendorff_alpha(expanded, level="ordinal", value_domain=GRADES)
        assert draws[b] == pytest.approx(expected, abs=1e-12, nan_ok=True)


def test_item_weights_are_seeded_and_sum_to_the_items() -> None:
    a = stats.item_weights(12, 300, seed=5)
    assert a.shape == (300, 12) and (a.sum(axis=1) == 12).all()
    assert (a == stats.item_weights(12, 300, seed=5)).all()
    assert not (a == stats.item_weights(12, 300, seed=6)).all()
