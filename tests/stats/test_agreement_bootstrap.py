"""A weighted resample of agreement statistics equals the statistic on the expanded data."""

from __future__ import annotations

import numpy as np
import pytest

from parakh.stats import agreement as stats
from parakh.stats import agreement_bootstrap as boot

GRADES = [0.0, 1.0, 2.0, 3.0]


def _expanded(pairs: boot.ItemPairs, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keep = np.repeat(np.arange(pairs.judge.size), counts[pairs.item].astype(int))
    return pairs.judge[keep], pairs.human[keep]


@pytest.fixture
def pairs() -> boot.ItemPairs:
    rng = np.random.default_rng(7)
    items = [f"i{i}" for i in range(30)] + ["i3", "i7", "i7"]  # repeated ratings of 2 items
    judge = rng.integers(0, 4, size=len(items)).astype(float)
    for k, item in enumerate(items):  # one judge score per item
        judge[k] = judge[items.index(item)]
    human = np.clip(judge + rng.integers(-1, 2, size=len(items)), 0, 3)
    return boot.ItemPairs.of(list(judge), list(human), items)


def test_weighted_draws_equal_the_statistics_of_the_expanded_data(pairs) -> None:  # type: ignore[no-untyped-def]
    weights = boot.item_weights(pairs.n_items, 40, seed=3)
    draws = {
        "percent": boot.percent_agreement_draws(pairs, weights[:, pairs.item]),
        "kappa": boot.cohen_kappa_draws(pairs, weights[:, pairs.item], GRADES, linear=False),
        "kappa_linear": boot.cohen_kappa_draws(pairs, weights[:, pairs.item], GRADES, linear=True),
        "spearman": boot.spearman_draws(pairs, weights[:, pairs.item]),
        "kendall": boot.kendall_tau_draws(pairs, weights[:, pairs.item]),
    }
    for b, counts in enumerate(weights):
        judge, human = _expanded(pairs, counts)
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
    weights = boot.item_weights(units.shape[1], 25, seed=11)
    draws = boot.krippendorff_ordinal_draws(units, weights, GRADES)
    for b, counts in enumerate(weights):
        expanded = np.repeat(units, counts.astype(int), axis=1)
        expected = stats.krippendorff_alpha(expanded, level="ordinal", value_domain=GRADES)
        assert draws[b] == pytest.approx(expected, abs=1e-12, nan_ok=True)


def test_item_weights_are_seeded_and_sum_to_the_items() -> None:
    a = boot.item_weights(12, 300, seed=5)
    assert a.shape == (300, 12) and (a.sum(axis=1) == 12).all()
    assert (a == boot.item_weights(12, 300, seed=5)).all()
    assert not (a == boot.item_weights(12, 300, seed=6)).all()
