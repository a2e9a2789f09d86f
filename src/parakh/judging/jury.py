"""Juries: several judge models score the same item; their votes are combined, and their
agreement is measured.

A vote is a juror's valid score; invalid outputs and failed calls are not votes. An item gets a
score only when at least `min_votes` jurors voted, so a jury never hides a broken juror behind
the others without saying so (the row keeps every juror's vote or None). Combinations: `mean`,
`median`, `majority` (the most frequent score; a tie has no majority and gives no score).

Agreement between jurors, per metric: the mean share of agreeing juror pairs per item, the
exact-agreement rate of every pair of jurors, and Krippendorff's alpha (ordinal for integer
scales, interval for decimal ones; the coincidence-matrix formulation, which tolerates missing
votes).
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from parakh.schema import Judgment
from parakh.stats.agreement import krippendorff_alpha as stats_alpha

Combine = Literal["mean", "median", "majority"]
Level = Literal["nominal", "ordinal", "interval"]


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


def krippendorff_alpha(units: Iterable[Sequence[float | None]], level: Level) -> float | None:
    """Krippendorff's alpha over units (items) of ratings (None = missing), by
    `parakh.stats.agreement.krippendorff_alpha`.

    None when no unit has two ratings or every rating is the same value (expected
    disagreement 0: alpha is undefined, not 1).
    """
    rows = [[math.nan if r is None else float(r) for r in unit] for unit in units]
    if not rows:
        return None
    width = max(len(row) for row in rows)
    matrix = np.array([row + [math.nan] * (width - len(row)) for row in rows]).T  # raters x units
    alpha = stats_alpha(matrix, level=level)
    return None if math.isnan(alpha) else alpha


class PairAgreement(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    jurors: tuple[str, str]
    agree: int
    items: int
    rate: float | None


class JuryAgreement(BaseModel):
    """How far the jurors agree on one metric, over items where at least two voted."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    metric: str
    items: int
    percent_agreement: float | None
    alpha: float | None
    alpha_level: Level
    pairs: list[PairAgreement]


def _pair_share(votes: list[float]) -> float:
    pairs = list(itertools.combinations(votes, 2))
    return sum(a == b for a, b in pairs) / len(pairs)


def jury_agreement(
    rows: Iterable[Judgment], jurors: Sequence[str], integer_scale: Mapping[str, bool]
) -> list[JuryAgreement]:
    """Agreement per metric from the `votes` of jury rows (rows without votes are ignored)."""
    by_metric: dict[str, list[dict[str, float | None]]] = defaultdict(list)
    for row in rows:
        if row.votes:
            by_metric[row.metric].append(row.votes)
    out = []
    for metric, items in sorted(by_metric.items()):
        voted = [[v[j] for j in jurors if v.get(j) is not None] for v in items]
        shares = [_pair_share([x for x in vs if x is not None]) for vs in voted if len(vs) >= 2]
        pairs = []
        for a, b in itertools.combinations(jurors, 2):
            both = [(v[a], v[b]) for v in items if v.get(a) is not None and v.get(b) is not None]
            agree = sum(x == y for x, y in both)
            pairs.append(
                PairAgreement(
                    jurors=(a, b),
                    agree=agree,
                    items=len(both),
                    rate=agree / len(both) if both else None,
                )
            )
        level: Level = "ordinal" if integer_scale.get(metric, True) else "interval"
        out.append(
            JuryAgreement(
                metric=metric,
                items=len(shares),
                percent_agreement=sum(shares) / len(shares) if shares else None,
                alpha=krippendorff_alpha(([v.get(j) for j in jurors] for v in items), level),
                alpha_level=level,
                pairs=pairs,
            )
        )
    return out
