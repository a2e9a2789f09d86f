"""Paired (judge, human) scores and their bootstrap intervals, for `parakh.report.agreement`.

`AgreementPairs` holds one metric's pairs after any declared mapping; `pair_intervals` gives
every agreement figure's percentile interval over the same resamples of graded items, and
`ranking_intervals` those of the two model rankings over resamples of questions. Both are seeded
by `Bootstrap` (the run's seed and the statistic's key), so reports are byte-identical per run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from parakh.report.leaderboard import Settings
from parakh.stats import agreement as stats
from parakh.stats import agreement_bootstrap as boot
from parakh.stats.bootstrap import derive_seed

ItemKey = tuple[str, str]  # (question_id, model)


def finite(value: float) -> float | None:
    return None if value is None or not np.isfinite(value) else round(float(value), 12)


@dataclass
class AgreementPairs:
    """Paired (judge, human) scores of one metric, after any declared mapping."""

    judge: list[float] = field(default_factory=list)
    human: list[float] = field(default_factory=list)
    items: list[ItemKey] = field(default_factory=list)
    raters: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)

    def subset(self, keep: list[bool]) -> AgreementPairs:
        out = AgreementPairs()
        for name in ("judge", "human", "items", "raters", "languages", "systems"):
            setattr(out, name, [v for v, k in zip(getattr(self, name), keep, strict=True) if k])
        return out


@dataclass(frozen=True)
class Bootstrap:
    """Seeded interval settings and the key that seeds this statistic's resamples."""

    settings: Settings
    key: tuple[str, ...]

    @classmethod
    def of(cls, settings: Settings | None, *key: str) -> Bootstrap | None:
        return None if settings is None else cls(settings, key)

    def seed(self, *more: str) -> int:
        return derive_seed(self.settings.seed, "agreement", *self.key, *more)


def _interval(draws: np.ndarray, confidence: float) -> list[float] | None:
    found = boot.interval(draws, confidence)
    return None if found is None else [round(found.low, 6), round(found.high, 6)]


def pair_intervals(
    pairs: AgreementPairs,
    units: np.ndarray,
    grades: list[float],
    categorical: bool,
    bootstrap: Bootstrap,
) -> dict[str, list[float]]:
    """Every figure's percentile interval over the same item resamples (units in the order
    of `units`' columns: sorted item keys)."""
    order = {item: i for i, item in enumerate(sorted(set(pairs.items)))}
    item_pairs = boot.ItemPairs(
        np.asarray(pairs.judge, dtype=float),
        np.asarray(pairs.human, dtype=float),
        np.asarray([order[item] for item in pairs.items], dtype=int),
        len(order),
    )
    settings = bootstrap.settings
    items = boot.item_weights(item_pairs.n_items, settings.resamples, bootstrap.seed("items"))
    weights = boot.pair_weights(item_pairs, items)
    draws = {
        "spearman": boot.spearman_draws(item_pairs, weights),
        "kendall_tau": boot.kendall_tau_draws(item_pairs, weights),
    }
    if categorical:
        draws["percent_agreement"] = boot.percent_agreement_draws(item_pairs, weights)
        draws["cohen_kappa"] = boot.cohen_kappa_draws(item_pairs, weights, grades, linear=False)
        draws["cohen_kappa_linear"] = boot.cohen_kappa_draws(
            item_pairs, weights, grades, linear=True
        )
        draws["krippendorff_alpha_ordinal"] = boot.krippendorff_ordinal_draws(units, items, grades)
    out = {}
    for figure in FIGURES:
        if figure in draws:
            found = _interval(draws[figure], settings.confidence)
            if found is not None:
                out[figure] = found
    return out


FIGURES = (
    "percent_agreement",
    "cohen_kappa",
    "cohen_kappa_linear",
    "krippendorff_alpha_ordinal",
    "spearman",
    "kendall_tau",
)


def ranking_intervals(
    pairs: AgreementPairs, systems: list[str], bootstrap: Bootstrap
) -> dict[str, list[float]]:
    """Spearman and Kendall tau of the two rankings over resamples of questions (every
    system's answers to a drawn question come along)."""
    questions = sorted({question for question, _ in pairs.items})
    q_index = {q: i for i, q in enumerate(questions)}
    s_index = {s: i for i, s in enumerate(systems)}
    judge_sum = np.zeros((len(questions), len(systems)))
    judge_n = np.zeros_like(judge_sum)
    human_sum = np.zeros_like(judge_sum)
    human_n = np.zeros_like(judge_sum)
    seen: set[ItemKey] = set()
    for system, item, j, h in zip(
        pairs.systems, pairs.items, pairs.judge, pairs.human, strict=True
    ):
        q, s = q_index[item[0]], s_index[system]
        if item not in seen:  # the judge scored an item once, however many human grades
            seen.add(item)
            judge_sum[q, s] += j
            judge_n[q, s] += 1
        human_sum[q, s] += h
        human_n[q, s] += 1
    settings = bootstrap.settings
    weights = boot.item_weights(len(questions), settings.resamples, bootstrap.seed("ranking"))
    with np.errstate(invalid="ignore", divide="ignore"):
        judge_means = (weights @ judge_sum) / (weights @ judge_n)
        human_means = (weights @ human_sum) / (weights @ human_n)
    spearman = np.full(weights.shape[0], np.nan)
    kendall = np.full(weights.shape[0], np.nan)
    for b in range(weights.shape[0]):
        drawn = np.isfinite(judge_means[b]) & np.isfinite(human_means[b])
        if drawn.sum() >= 2:  # systems with no answer among the drawn questions drop out
            spearman[b] = stats.spearman(judge_means[b, drawn], human_means[b, drawn])
            kendall[b] = stats.kendall_tau(judge_means[b, drawn], human_means[b, drawn])
    out = {}
    for figure, draws in (("spearman", spearman), ("kendall_tau", kendall)):
        found = _interval(draws, settings.confidence)
        if found is not None:
            out[figure] = found
    return out
