"""Reciprocal rank fusion: the arithmetic, the weights, and deterministic ties."""

from __future__ import annotations

import pytest

from parakh.retrieval.retrievers import reciprocal_rank_fusion


def test_rrf_adds_reciprocal_ranks() -> None:
    dense = [(7, 0.9), (3, 0.8), (5, 0.1)]
    sparse = [(3, 12.0), (9, 4.0)]
    fused = dict(reciprocal_rank_fusion([dense, sparse], [1.0, 1.0], rrf_k=60))
    assert fused[3] == pytest.approx(1 / 62 + 1 / 61)
    assert fused[7] == pytest.approx(1 / 61)
    assert fused[9] == pytest.approx(1 / 62)
    assert fused[5] == pytest.approx(1 / 63)
    assert [i for i, _ in reciprocal_rank_fusion([dense, sparse], [1.0, 1.0])] == [3, 7, 9, 5]


def test_an_item_ranked_second_by_both_beats_one_ranked_first_by_one() -> None:
    a = [(1, 0.0), (2, 0.0)]
    b = [(3, 0.0), (2, 0.0)]
    assert reciprocal_rank_fusion([a, b], [1.0, 1.0])[0][0] == 2


def test_weights_and_ties() -> None:
    a, b = [(1, 0.0)], [(2, 0.0)]
    assert [i for i, _ in reciprocal_rank_fusion([a, b], [1.0, 1.0])] == [1, 2]  # tie: lower id
    assert [i for i, _ in reciprocal_rank_fusion([b, a], [1.0, 1.0])] == [1, 2]
    assert [i for i, _ in reciprocal_rank_fusion([a, b], [0.5, 1.0])] == [2, 1]
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([a, b], [1.0])
