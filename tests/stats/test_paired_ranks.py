"""Paired sign-flip tests, Holm's correction and bootstrap rank intervals."""

from __future__ import annotations

import numpy as np
import pytest
from tests.stats.ranking import rank_intervals

from parakh.stats.bootstrap import ItemScores
from parakh.stats.paired import holm_adjust, paired_test, sign_flip_p_value
from parakh.stats.shared_draws import competition_ranks


def test_identical_models_are_not_different() -> None:
    a = np.array([0.1, 0.5, 0.9, 0.3])
    result = paired_test(a, a.copy(), seed=0)
    assert result.difference == 0.0 and result.p_value == 1.0


def test_a_consistent_difference_is_detected_and_seeded() -> None:
    rng = np.random.default_rng(0)
    b = rng.random(40)
    a = b + 0.2 + rng.normal(0, 0.05, 40)
    result = paired_test(a, b, seed=9, permutations=2000)
    assert result.n == 40 and result.difference == pytest.approx(float((a - b).mean()))
    assert result.p_value == pytest.approx(1 / 2001)
    assert result.interval is not None and result.interval.low > 0.1
    assert paired_test(a, b, seed=9, permutations=2000) == result


def test_sign_flip_p_value_is_exact_for_a_tiny_case() -> None:
    # differences (1, 1): of the 4 sign patterns, 2 reach |mean| >= 1; the Monte Carlo estimate
    # converges to 0.5
    p = sign_flip_p_value(np.array([1.0, 1.0]), seed=1, permutations=20000)
    assert p == pytest.approx(0.5, abs=0.02)


def test_holm_adjustment() -> None:
    assert holm_adjust([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm_adjust([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm_adjust([]) == []


def test_competition_ranks_with_ties_and_missing() -> None:
    assert competition_ranks(np.array([0.5, 0.9, 0.5, np.nan])).tolist() == [2, 1, 2, 4]


def _single(values: list[float]) -> ItemScores:
    array = np.array(values)
    return ItemScores.single(array, np.ones_like(array))


def test_rank_intervals_separate_clear_gaps_and_overlap_close_models() -> None:
    rng = np.random.default_rng(1)
    base = rng.random(60)
    scores = {
        "strong": _single(list(base + 1.0)),
        "close_a": _single(list(base + rng.normal(0, 0.3, 60))),
        "close_b": _single(list(base + rng.normal(0, 0.3, 60))),
    }
    ranks = rank_intervals(scores, seed=3)
    assert (ranks["strong"].rank, ranks["strong"].low, ranks["strong"].high) == (1, 1, 1)
    for name in ("close_a", "close_b"):
        assert (ranks[name].low, ranks[name].high) == (2, 3)
    assert rank_intervals(scores, seed=3) == ranks


def test_models_without_scores_have_no_rank_and_misaligned_items_fail() -> None:
    empty = ItemScores.single(np.zeros(3), np.zeros(3))
    ranks = rank_intervals({"a": _single([1, 2, 3]), "none": empty}, seed=0)
    assert set(ranks) == {"a"}
    with pytest.raises(ValueError, match="same items"):
        rank_intervals({"a": _single([1, 2]), "b": _single([1, 2, 3])}, seed=0)
