"""Rank intervals and paired tests for lower-is-better metrics (error and hallucination rates)."""

from __future__ import annotations

import numpy as np
from tests.stats.ranking import rank_intervals

from parakh.stats.bootstrap import ItemScores
from parakh.stats.paired import paired_test
from parakh.stats.shared_draws import competition_ranks


def _single(values: list[float]) -> ItemScores:
    array = np.array(values)
    return ItemScores.single(array, np.ones_like(array))


def test_competition_ranks_put_the_lowest_first_when_lower_is_better() -> None:
    values = np.array([0.5, 0.9, 0.1, np.nan])
    assert competition_ranks(values, higher_is_better=False).tolist() == [2, 3, 1, 4]
    assert competition_ranks(values).tolist() == [2, 1, 3, 4]


def test_rank_intervals_rank_the_lower_rate_first() -> None:
    careful = [1.0 if i % 10 == 0 else 0.0 for i in range(60)]  # 10% hallucination
    reckless = [0.0 if i % 10 == 0 else 1.0 for i in range(60)]  # 90%
    ranks = rank_intervals(
        {"careful": _single(careful), "reckless": _single(reckless)},
        seed=1,
        resamples=200,
        higher_is_better=False,
    )
    assert (ranks["careful"].rank, ranks["careful"].low, ranks["careful"].high) == (1, 1, 1)
    assert ranks["reckless"].rank == 2


def test_paired_test_names_the_lower_rate_better_whatever_the_sign() -> None:
    careful = np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
    reckless = np.array([1.0, 1.0, 1.0, 0.0, 1.0, 1.0])
    lower = paired_test(careful, reckless, seed=0, permutations=200, higher_is_better=False)
    assert lower.difference < 0 and lower.better == "a"
    higher = paired_test(careful, reckless, seed=0, permutations=200)
    assert higher.better == "b"
    tie = paired_test(careful, careful.copy(), seed=0, permutations=200, higher_is_better=False)
    assert tie.better is None
