"""How far a jury's jurors agree, per metric, from the `votes` of its rows.

The mean share of agreeing juror pairs per item, the exact-agreement rate of every pair of
jurors, and Krippendorff's alpha (ordinal for integer scales, interval for decimal ones; the
coincidence-matrix formulation, which tolerates missing votes). Combining the votes into a
score is `parakh.judging.votes`.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from parakh.schema import Judgment
from parakh.stats.agreement import krippendorff_alpha as stats_alpha

Level = Literal["nominal", "ordinal", "interval"]


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
            rate = agree / len(both) if both else None
            pairs.append(PairAgreement(jurors=(a, b), agree=agree, items=len(both), rate=rate))
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
