"""A jury's votes combined into one score: mean, median, majority, and the quorum."""

from __future__ import annotations

import pytest

from parakh.judging.ballot_rows import combine_votes, default_min_votes


@pytest.mark.parametrize(
    ("votes", "how", "min_votes", "score"),
    [
        ([2, 1, 2], "mean", 2, 5 / 3),
        ([2, 1, 2], "median", 2, 2.0),
        ([2, 1, 2], "majority", 2, 2.0),
        ([0, 2], "median", 2, 1.0),
        ([4.5, 3.0], "mean", 1, 3.75),
        ([1], "majority", 1, 1.0),
    ],
)
def test_combine_votes(votes: list[float], how, min_votes: int, score: float) -> None:
    result = combine_votes(votes, how, min_votes)
    assert result.reason is None and result.score == pytest.approx(score)


def test_too_few_votes_give_no_score() -> None:
    result = combine_votes([2.0], "mean", 2)
    assert result.score is None and "1 valid vote(s), the jury needs 2" in (result.reason or "")


def test_a_tied_majority_gives_no_score() -> None:
    result = combine_votes([2.0, 0.0], "majority", 2)
    assert result.score is None and "no majority" in (result.reason or "")


def test_default_quorum_is_a_majority() -> None:
    assert [default_min_votes(n) for n in (1, 2, 3, 4, 5)] == [1, 2, 2, 3, 3]
