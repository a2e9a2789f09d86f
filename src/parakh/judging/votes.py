"""A jury's votes combined into one score: several judge models score the same item.

A vote is a juror's valid score; invalid outputs and failed calls are not votes. An item gets a
score only when at least `min_votes` jurors voted, so a jury never hides a broken juror behind
the others without saying so (the row keeps every juror's vote or None). Combinations: `mean`,
`median`, `majority` (the most frequent score; a tie has no majority and gives no score). How
far the jurors agree is `parakh.stats.agreement.jury_agreement`.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Combine = Literal["mean", "median", "majority"]


@dataclass(frozen=True)
class JuryScore:
    """The combined score, or the reason there is none."""

    score: float | None
    reason: str | None = None


def default_min_votes(jurors: int) -> int:
    """A majority of the jurors."""
    return jurors // 2 + 1


def combine_votes(votes: Sequence[float], how: Combine, min_votes: int) -> JuryScore:
    """Combine the valid votes of one item; too few votes or a tied majority give no score."""
    if len(votes) < min_votes:
        return JuryScore(None, f"{len(votes)} valid vote(s), the jury needs {min_votes}")
    if how == "mean":
        return JuryScore(statistics.fmean(votes))
    if how == "median":
        return JuryScore(float(statistics.median(votes)))
    counts = Counter(votes).most_common()
    if len(counts) > 1 and counts[0][1] == counts[1][1]:
        tied = sorted(v for v, c in counts if c == counts[0][1])
        return JuryScore(None, f"no majority: votes tie between {tied}")
    return JuryScore(float(counts[0][0]))
