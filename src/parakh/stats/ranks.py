"""Rank intervals: which places on a leaderboard the data can tell apart.

Every bootstrap draw of items (`shared_draws`) ranks all models; each model's interval is the
central one of its ranks. Rank 1 is the best value in the metric's direction.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parakh.stats.bootstrap import DEFAULT_CONFIDENCE


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
    confidence: float = DEFAULT_CONFIDENCE,
    higher_is_better: bool = True,
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
