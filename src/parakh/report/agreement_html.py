"""The report's judge-human agreement section: per metric and slice with bootstrap intervals,
a chart of each metric's rank correlation with the humans, and the two model rankings.

The markup is templates/agreement.html.j2 and agreement_chart.svg.j2; this module lays out
what they show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parakh.report.agreement import FIGURES, AgreementStats, MetricAgreement, RankingAgreement
from parakh.report.html_parts import colour
from parakh.report.templating import Markup, render

SOURCES = {"grades": "grades file", "answers": "curated grades of answers"}


@dataclass(frozen=True)
class StatsView:
    """A slice's items, pairs, and each of `FIGURES` with its interval (None: not computed)."""

    n_items: int
    n_pairs: int
    figures: list[tuple[float | None, list[float] | None]]


def _stats(s: AgreementStats) -> StatsView:
    return StatsView(s.n_items, s.n_pairs, [(getattr(s, f), s.intervals.get(f)) for f in FIGURES])


def _label(a: MetricAgreement) -> str:
    return a.metric if a.source == "grades" else f"{a.metric} ({a.source})"


def _ranking(ranking: RankingAgreement | None) -> dict[str, Any] | None:
    """Models ordered by mean human grade, each with its judge rank."""
    if ranking is None:
        return None
    by_human = sorted(ranking.human_means, key=lambda m: (-ranking.human_means[m], m))
    by_judge = sorted(ranking.judge_means, key=lambda m: (-ranking.judge_means[m], m))
    return {
        "rows": [(m, by_judge.index(m) + 1) for m in by_human],
        "human_means": ranking.human_means,
        "judge_means": ranking.judge_means,
        "kendall_tau": ranking.kendall_tau,
        "spearman": ranking.spearman,
        "intervals": ranking.intervals,
    }


def _metric(a: MetricAgreement) -> dict[str, Any]:
    unpaired = ", ".join(f"{k} {v}" for k, v in a.unpaired_human_grades.items())
    return {
        "label": _label(a),
        "source": SOURCES.get(a.source, a.source),
        "mapping": a.mapping,
        "human_grades": a.human_grades,
        "unpaired": unpaired,
        "overall": _stats(a.overall),
        "by_language": {language: _stats(s) for language, s in a.by_language.items()},
        "by_model": {model: _stats(s) for model, s in a.by_model.items()},
        "ranking": _ranking(a.ranking),
    }


def correlation_chart(agreement: list[MetricAgreement]) -> str:
    """Inline SVG: each metric's Spearman with the human grades on -1..1, with its interval."""
    width, left, bar_h = 760, 220, 16
    plot_w = width - left - 20
    zero = left + plot_w / 2

    def x(value: float) -> float:
        return zero + plot_w / 2 * value

    bars = []
    for k, a in enumerate(agreement):
        bar: dict[str, Any] = {"y": 22 + k * bar_h, "label": _label(a), "metric": a.metric}
        rho = bar["rho"] = a.overall.spearman
        if rho is not None:
            bar["start"], bar["end"] = sorted((zero, x(rho)))
            bar["fill"] = colour((rho + 1) / 2)
            interval = a.overall.intervals.get("spearman")
            bar["whisker"] = (x(interval[0]), x(interval[1])) if interval else None
        bars.append(bar)
    return render(
        "agreement_chart.svg.j2",
        width=width,
        height=34 + bar_h * len(agreement),
        left=left,
        bar_h=bar_h,
        ticks=[(x(tick), tick) for tick in (-1.0, -0.5, 0.0, 0.5, 1.0)],
        bars=bars,
    )


def agreement_section(agreement: list[MetricAgreement]) -> str:
    if not agreement:
        return render("agreement.html.j2", agreement=[])
    return render(
        "agreement.html.j2",
        agreement=[_metric(a) for a in agreement],
        chart=Markup(correlation_chart(agreement)),  # the SVG rendered above
    )
