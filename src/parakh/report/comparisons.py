"""How the leaderboard's models compare: rank intervals per metric and paired tests between
every two models, on the same per-item tables as the cells.

The rank intervals reuse the cells' draws, and the paired tests of every metric share one
resampling and one matrix of sign patterns (`parakh.report.shared_statistics`). Holm's
correction is applied within each metric, across its pairs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tqdm import tqdm

from parakh.report.items import ItemIndex
from parakh.report.shared_statistics import CellDraws, MetricPlan, shared_paired, shared_ranks
from parakh.stats.bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES
from parakh.stats.paired import DEFAULT_PERMUTATIONS, PairedResult, holm_adjust
from parakh.stats.ranks import RankInterval


@dataclass(frozen=True)
class Settings:
    """What the statistics depend on besides the rows; all of it is in the config."""

    seed: int = 0
    resamples: int = DEFAULT_RESAMPLES
    confidence: float = DEFAULT_CONFIDENCE
    permutations: int = DEFAULT_PERMUTATIONS
    weighted_scale: float = 1.0  # the weighted aggregate is reported on 0..weighted_scale


@dataclass(frozen=True)
class PairedComparison:
    """Two models on the items both were scored on, for one metric (overall).

    `result.difference` is A minus B on the metric's own values; `better` names the model whose
    mean is better in the metric's direction (for a lower-is-better rate, the lower one), None
    on a tie.
    """

    metric: str
    model_a: str
    model_b: str
    result: PairedResult
    p_holm: float

    @property
    def better(self) -> str | None:
        if self.result.better is None:
            return None
        return self.model_a if self.result.better == "a" else self.model_b


@dataclass
class Comparisons:
    """Each metric's rank intervals by model, and every paired test in metric order."""

    ranks: dict[str, dict[str, RankInterval]] = field(default_factory=dict)
    paired: list[PairedComparison] = field(default_factory=list)


def compare_models(
    index: ItemIndex,
    systems: list[str],
    plans: list[MetricPlan],
    settings: Settings,
    known: CellDraws,
    *,
    progress: bool = False,
) -> Comparisons:
    """Rank intervals and paired tests of every metric in `plans`, in their order."""
    found = Comparisons()
    bar = tqdm(
        plans, desc="aggregate: rank intervals, paired tests", unit="metric", disable=not progress
    )
    for plan in bar:
        found.ranks[plan.metric] = shared_ranks(
            index, systems, plan.metric, plan.weights, known, seed=settings.seed,
            resamples=settings.resamples, confidence=settings.confidence,
            higher_is_better=plan.higher_is_better,
        )  # fmt: skip
    tests = shared_paired(
        index, systems, plans, seed=settings.seed, permutations=settings.permutations,
        resamples=settings.resamples, confidence=settings.confidence,
    )  # fmt: skip
    for plan in plans:
        found.paired += _holm(plan.metric, [(a, b, r) for m, a, b, r in tests if m == plan.metric])
    return found


def _holm(metric: str, found: list[tuple[str, str, PairedResult]]) -> list[PairedComparison]:
    """One metric's comparisons with Holm-adjusted p-values across its pairs."""
    adjusted = holm_adjust([r.p_value for _, _, r in found])
    return [
        PairedComparison(metric, a, b, r, p) for (a, b, r), p in zip(found, adjusted, strict=True)
    ]
