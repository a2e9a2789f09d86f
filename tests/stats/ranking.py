"""Rank intervals of models aligned on the same items, the way the leaderboard draws them: one
shared resampling of the items (`shared_draws`), ranked draw by draw (`ranks_of_draws`)."""

from __future__ import annotations

import numpy as np

from parakh.stats.bootstrap import ItemScores
from parakh.stats.shared_draws import RankInterval, ranks_of_draws, shared_draws


def rank_intervals(
    scores: dict[str, ItemScores],
    *,
    seed: int,
    resamples: int = 1000,
    confidence: float = 0.95,
    higher_is_better: bool = True,
) -> dict[str, RankInterval]:
    """Models without any score are left out, as on the leaderboard (`shared_ranks`)."""
    names = [name for name, s in scores.items() if s.point() is not None]
    found = shared_draws([scores[name] for name in names], seed=seed, resamples=resamples)
    draws = np.stack([values for values in found if values is not None], axis=1)
    points = np.array([scores[name].point() for name in names], dtype=float)
    return ranks_of_draws(
        names, points, draws, confidence=confidence, higher_is_better=higher_is_better
    )
