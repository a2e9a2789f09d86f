"""Agreement statistics between raters: an LLM judge and humans on paired scores, and a jury's
jurors on their votes (`jury_agreement`).

Each function equals a reference implementation on the same inputs (tests check this):
`cohen_kappa` = scikit-learn `cohen_kappa_score` (weights None, 'linear', 'quadratic'),
`krippendorff_alpha` = the `krippendorff` package's `alpha`, `spearman` and `kendall_tau` =
scipy's `spearmanr` and `kendalltau` (tau-b). Undefined statistics (a rater who gives one grade
to everything, fewer than two items) are `nan`, never a made-up number.

Bootstrap intervals resample items: the `weighted_*` forms compute a statistic on every
resample at once from (resamples, pairs) weights, a pair counted as often as its item was
drawn (`item_weights`), equal to the plain statistic on the expanded data (tested).
Grades on two scales are compared through a declared `ScaleMapping` (`conf/aggregate/*.yaml`
or a file given to `parakh agreement`).
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from parakh.stats.bootstrap import multiplicities, resample_blocks

if TYPE_CHECKING:
    from parakh.schema import Judgment

Scores = Sequence[float] | np.ndarray
KappaWeights = Literal["linear", "quadratic"]
AlphaLevel = Literal["nominal", "ordinal", "interval", "ratio"]


def _pair(a: Scores, b: Scores) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(
            f"paired scores must be two 1-D arrays of one length: {x.shape}, {y.shape}"
        )
    return x, y


def percentage_agreement(a: Scores, b: Scores) -> float:
    """Percentage of items given exactly the same grade by both raters.

    HEALTH-PARIKSHA reports Percentage Agreement between human and LLM evaluators (§4 Results)
    without defining it further; exact agreement is its usual meaning."""
    x, y = _pair(a, b)
    if x.size == 0:
        return float("nan")
    return 100.0 * float(np.mean(x == y))


def weighted_percent_agreement(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> np.ndarray:
    match = (x == y).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(100.0 * (weights @ match) / weights.sum(axis=1))


def cohen_kappa(
    a: Scores,
    b: Scores,
    *,
    labels: Sequence[float] | None = None,
    weights: KappaWeights | None = None,
) -> float:
    """Cohen's kappa; `weights='linear'` for ordinal grades (disagreement grows with distance).

    Distances are between positions in `labels` (default: the sorted grades seen), as in
    scikit-learn; pass the full scale as `labels` so that an unused grade still counts.
    """
    x, y = _pair(a, b)
    scale = np.unique(np.concatenate([x, y])) if labels is None else np.asarray(labels, float)
    confusion = weighted_confusions(x, y, scale, np.ones((1, x.size)))
    return float(kappa_of_confusions(confusion, weights)[0])


def weighted_confusions(
    x: np.ndarray, y: np.ndarray, labels: Sequence[float] | np.ndarray, weights: np.ndarray
) -> np.ndarray:
    """(resamples, labels, labels) confusion matrices, pair i counted weights[r, i] times in
    row r; a grade not in `labels` is left out."""
    scale = np.asarray(labels, float)
    cells = (x[:, None] == scale)[:, :, None] & (y[:, None] == scale)[:, None, :]
    k = scale.size
    return (weights @ cells.reshape(x.size, k * k)).reshape(weights.shape[0], k, k)


def kappa_of_confusions(confusion: np.ndarray, weights: KappaWeights | None) -> np.ndarray:
    """Cohen's kappa of each (..., k, k) confusion matrix; NaN where undefined."""
    grid = np.arange(confusion.shape[-1])
    if weights is None:
        w = 1.0 - np.eye(grid.size)
    elif weights == "linear":
        w = np.abs(grid[:, None] - grid[None, :]).astype(float)
    elif weights == "quadratic":
        w = ((grid[:, None] - grid[None, :]) ** 2).astype(float)
    else:
        raise ValueError(f"unknown kappa weights {weights!r}: use None, 'linear' or 'quadratic'")
    total = confusion.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = confusion.sum(axis=-1)[..., :, None] * confusion.sum(axis=-2)[..., None, :]
        expected = expected / total[..., None, None]
        denominator = (w * expected).sum(axis=(-2, -1))
        value = 1.0 - (w * confusion).sum(axis=(-2, -1)) / denominator
    return np.where((total > 0) & (denominator > 0), value, np.nan)


def distance_matrix(domain: np.ndarray, n_v: np.ndarray, level: AlphaLevel) -> np.ndarray:
    """Squared distances between the values of `domain` at `level` (ordinal: by the counts
    `n_v` of the values between them)."""
    v1, v2 = domain[:, None], domain[None, :]
    if level == "nominal":
        return (v1 != v2).astype(float)
    if level == "interval":
        return (v1 - v2) ** 2
    if level == "ratio":
        with np.errstate(invalid="ignore", divide="ignore"):
            d = ((v1 - v2) / (v1 + v2)) ** 2
        return np.nan_to_num(d)
    if level == "ordinal":
        cumulative = np.concatenate([[0.0], np.cumsum(n_v)])
        i = np.arange(len(domain))
        lo, hi = np.minimum(i[:, None], i[None, :]), np.maximum(i[:, None], i[None, :])
        between = cumulative[hi + 1] - cumulative[lo]
        return (between - (n_v[lo] + n_v[hi]) / 2.0) ** 2
    raise ValueError(f"unknown level of measurement {level!r}")


def krippendorff_alpha(
    reliability_data: np.ndarray | Sequence[Sequence[float]],
    *,
    level: AlphaLevel = "ordinal",
    value_domain: Sequence[float] | None = None,
) -> float:
    """Krippendorff's alpha of a raters x units matrix; NaN marks a missing rating.

    Any number of raters, missing ratings allowed; units with fewer than two ratings carry
    no information about agreement and drop out.
    """
    data = np.asarray(reliability_data, dtype=float)
    if data.ndim != 2:
        raise ValueError("reliability data must be a raters x units matrix")
    domain = (
        np.unique(data[~np.isnan(data)])
        if value_domain is None
        else np.asarray(value_domain, float)
    )
    if domain.size == 0:
        return float("nan")
    return alpha_of_coincidences(unit_coincidences(data, domain).sum(axis=0), domain, level)


def unit_coincidences(data: np.ndarray, domain: np.ndarray) -> np.ndarray:
    """(units, values, values): each unit's coincidences of the raters x units `data`, zero for
    a unit with fewer than two ratings (no information about agreement)."""
    counts = (data.T[:, :, None] == domain).sum(axis=1).astype(float)
    pairable = counts.sum(axis=1)[:, None, None]
    within = counts[:, :, None] * counts[:, None, :]
    within[:, np.arange(domain.size), np.arange(domain.size)] -= counts
    return np.where(pairable >= 2, within / np.maximum(pairable - 1, 1), 0.0)


def alpha_of_coincidences(observed: np.ndarray, domain: np.ndarray, level: AlphaLevel) -> float:
    """Krippendorff's alpha from the (values, values) matrix of observed coincidences."""
    n_v = observed.sum(axis=0)
    n = n_v.sum()
    if n <= 1:
        return float("nan")
    expected = (np.outer(n_v, n_v) - np.diag(n_v)) / (n - 1)
    distance = distance_matrix(domain, n_v, level)
    disagreement_expected = float((expected * distance).sum())
    if disagreement_expected <= 0.0:
        return float("nan")
    return 1.0 - float((observed * distance).sum()) / disagreement_expected


def weighted_alpha(
    data: np.ndarray, weights: np.ndarray, domain: np.ndarray, level: AlphaLevel
) -> np.ndarray:
    """Krippendorff's alpha of the raters x units `data` per row of (resamples, units)
    `weights`, unit u counted weights[r, u] times."""
    k = domain.size
    per_unit = unit_coincidences(data, domain).reshape(data.shape[1], k * k)
    observed = (weights @ per_unit).reshape(-1, k, k)
    return np.array([alpha_of_coincidences(o, domain, level) for o in observed])


def item_weights(n_items: int, resamples: int, seed: int) -> np.ndarray:
    """(resamples, n_items): how many times each item is drawn in each resample."""
    blocks = [multiplicities(index) for index in resample_blocks(n_items, resamples, seed)]
    return np.concatenate(blocks) if blocks else np.zeros((0, n_items))


def weighted_ranks(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(resamples, items): each item's average rank (ties share it) when item i counts
    weights[r, i] times in resample r; weights of ones give the plain ranks 1..n."""
    order = np.argsort(values, kind="mergesort")
    sorted_values = values[order]
    starts = np.flatnonzero(np.r_[True, sorted_values[1:] != sorted_values[:-1]])
    group = np.cumsum(np.r_[True, sorted_values[1:] != sorted_values[:-1]]) - 1
    counts = np.add.reduceat(weights[:, order], starts, axis=1)
    before = np.cumsum(counts, axis=1) - counts
    average = before + (counts + 1.0) / 2.0
    ranks = np.empty_like(weights)
    ranks[:, order] = average[:, group]
    return ranks


def weighted_kendall_tau(
    x: np.ndarray, y: np.ndarray, weights: np.ndarray, chunk: int = 256
) -> np.ndarray:
    """Kendall's tau-b per row of (resamples, items) `weights`: weighted quadratic forms of
    the pairwise sign matrices."""
    concordance = np.zeros(weights.shape[0])
    x_pairs = np.zeros(weights.shape[0])
    y_pairs = np.zeros(weights.shape[0])
    for start in range(0, x.size, chunk):
        sx = np.sign(x[start : start + chunk, None] - x[None, :])
        sy = np.sign(y[start : start + chunk, None] - y[None, :])
        left = weights[:, start : start + chunk]
        concordance += ((weights @ (sx * sy).T) * left).sum(axis=1)
        x_pairs += ((weights @ np.abs(sx).T) * left).sum(axis=1)
        y_pairs += ((weights @ np.abs(sy).T) * left).sum(axis=1)
    denominator = np.sqrt(x_pairs * y_pairs)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, concordance / denominator, np.nan)


def weighted_spearman(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Spearman's rho per row of (resamples, items) `weights`: the weighted Pearson
    correlation of the weighted average ranks."""
    rx, ry = weighted_ranks(x, weights), weighted_ranks(y, weights)
    total = weights.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        dx = rx - (weights * rx).sum(axis=1, keepdims=True) / total
        dy = ry - (weights * ry).sum(axis=1, keepdims=True) / total
        covariance = (weights * dx * dy).sum(axis=1)
        spread = np.sqrt((weights * dx**2).sum(axis=1) * (weights * dy**2).sum(axis=1))
        return np.where(spread > 0, covariance / spread, np.nan)


def spearman(a: Scores, b: Scores) -> float:
    """Spearman's rank correlation (Pearson correlation of average ranks)."""
    x, y = _pair(a, b)
    if x.size < 2:
        return float("nan")
    return float(weighted_spearman(x, y, np.ones((1, x.size)))[0])


def kendall_tau(a: Scores, b: Scores) -> float:
    """Kendall's tau-b, which corrects for ties in either rater (scipy's default)."""
    x, y = _pair(a, b)
    if x.size < 2:
        return float("nan")
    return float(weighted_kendall_tau(x, y, np.ones((1, x.size)))[0])


class PairAgreement(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    jurors: tuple[str, str]
    agree: int
    items: int
    rate: float | None


class JuryAgreement(BaseModel):
    """How far a jury's jurors agree on one metric, over items where at least two voted: the
    mean share of agreeing juror pairs per item, each pair's exact-agreement rate, and
    Krippendorff's alpha (ordinal for integer scales, interval for decimal ones; None where
    undefined)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    metric: str
    items: int
    percent_agreement: float | None
    alpha: float | None
    alpha_level: AlphaLevel
    pairs: list[PairAgreement]


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
        agreeing = [list(itertools.combinations(vs, 2)) for vs in voted if len(vs) >= 2]
        shares = [sum(a == b for a, b in pairs) / len(pairs) for pairs in agreeing]
        pairs = []
        for a, b in itertools.combinations(jurors, 2):
            both = [(v[a], v[b]) for v in items if v.get(a) is not None and v.get(b) is not None]
            agree = sum(x == y for x, y in both)
            rate = agree / len(both) if both else None
            pairs.append(PairAgreement(jurors=(a, b), agree=agree, items=len(both), rate=rate))
        level: AlphaLevel = "ordinal" if integer_scale.get(metric, True) else "interval"
        ratings = [[math.nan if (x := v.get(j)) is None else x for v in items] for j in jurors]
        matrix = np.array(ratings, dtype=float).reshape(len(jurors), len(items))
        alpha = krippendorff_alpha(matrix, level=level)
        out.append(
            JuryAgreement(
                metric=metric,
                items=len(shares),
                percent_agreement=sum(shares) / len(shares) if shares else None,
                alpha=None if math.isnan(alpha) else alpha,
                alpha_level=level,
                pairs=pairs,
            )
        )
    return out


class ScaleMapping(BaseModel):
    """A declared mapping from one grading scale onto another (a human's 1-4 onto a judge's
    0-2): agreement is only meaningful on one scale, and a grade outside the mapping is an
    error, never a silent guess. Either `table`, grade to grade (LiveQA-Med `{1: 0, 2: 0, 3: 1,
    4: 2}`), or `thresholds` + `labels`, bins for continuous scores: value < thresholds[0] ->
    labels[0], ..., value >= thresholds[-1] -> labels[-1]."""

    model_config = ConfigDict(extra="forbid")

    applies_to: Literal["human", "judge"] = Field(
        "human", description="whose grades are mapped onto the other side's scale"
    )
    table: dict[float, float] | None = None
    thresholds: list[float] | None = None
    labels: list[float] | None = None
    description: str = ""

    @model_validator(mode="after")
    def _one_form(self) -> ScaleMapping:
        if (self.table is None) == (self.thresholds is None):
            raise ValueError("declare exactly one of `table` or `thresholds` (+ `labels`)")
        if self.thresholds is not None:
            if self.labels is None or len(self.labels) != len(self.thresholds) + 1:
                raise ValueError("`labels` needs one more entry than `thresholds`")
            if list(self.thresholds) != sorted(self.thresholds):
                raise ValueError("`thresholds` must be increasing")
        return self

    @property
    def target_labels(self) -> list[float]:
        """Every grade of the target scale, in order (for weighted kappa distances)."""
        values = self.labels if self.labels is not None else list((self.table or {}).values())
        return sorted(set(values))

    def apply(self, value: float) -> float:
        """The grade `value` maps to; a value the table does not list raises ValueError."""
        if self.table is not None:
            if float(value) not in self.table:
                listed = ", ".join(f"{k:g}" for k in sorted(self.table))
                raise ValueError(f"grade {value:g} is not in the declared mapping ({listed})")
            return self.table[float(value)]
        assert self.thresholds is not None and self.labels is not None
        return self.labels[bisect_right(self.thresholds, value)]
