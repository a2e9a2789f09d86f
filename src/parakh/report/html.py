"""The self-contained HTML report. Each section is a template of its own
(templates/<section>.html.j2); the functions here pick and order what it shows, and
`render_report` puts the sections into the page (report.html.j2).

Pages are self-contained (inline CSS, JS and SVG; no network, no external files) and
deterministic (no timestamps), so a re-run on the same inputs writes the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import yaml

from parakh.config.stage_config import ParakhConfig
from parakh.report.agreement import FIGURES, MetricAgreement, RankingAgreement
from parakh.report.costs import COST_NOTE, cost_table
from parakh.report.gates import gates_section
from parakh.report.judge_bias import bias_section
from parakh.report.leaderboard import ALL, Cell, Leaderboard
from parakh.report.tables import format_cell, metric_heading, weights_line
from parakh.report.templating import Markup, render

if TYPE_CHECKING:
    from parakh.report.aggregate_result import AggregateResult

# viridis at 11 evenly spaced stops (matplotlib's colormap), interpolated linearly.
_VIRIDIS = [
    (68, 1, 84),
    (72, 40, 120),
    (62, 73, 137),
    (49, 104, 142),
    (38, 130, 142),
    (31, 158, 137),
    (53, 183, 121),
    (109, 205, 89),
    (180, 222, 44),
    (253, 231, 37),
    (253, 231, 37),
]


def colour(value: float | None) -> str:
    """viridis colour of a 0..1 value (grey when there is no value). Callers pass the value's
    goodness (1 - x for a lower-is-better metric), so bright yellow is always the good end."""
    if value is None:
        return "#e6e6e6"
    x = min(1.0, max(0.0, value)) * 10.0
    i = min(9, int(x))
    t = x - i
    a, b = _VIRIDIS[i], _VIRIDIS[i + 1]
    r, g, bl = (round(a[k] + (b[k] - a[k]) * t) for k in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"


def bar_chart(
    groups: Sequence[str],
    series: Sequence[tuple[str, Sequence[Cell | None]]],
    *,
    chart_id: str,
    label: str,
) -> str:
    """Inline SVG of horizontal bars on 0..1: per group one bar per series, with intervals.

    `series` is [(name, [cell per group])], each cell placed on 0..1 by its scale.
    """
    width, left, bar_h, gap = 760, 170, 12, 10
    plot_w = width - left - 20
    group_h = bar_h * max(1, len(series)) + gap
    fills = [colour(k / max(1, len(series) - 1) * 0.8 + 0.1) for k in range(len(series))]
    rows: list[dict[str, Any]] = []
    for g, group in enumerate(groups):
        y0 = 22 + g * group_h
        bars = []
        for k, (name, values) in enumerate(series):
            cell = values[g]
            if cell is None or cell.mean is None:
                continue
            mean, low, high = cell.unit(cell.mean), cell.unit(cell.ci_low), cell.unit(cell.ci_high)
            y = y0 + k * bar_h
            whisker = None
            if low is not None and high is not None:
                whisker = (left + plot_w * low, left + plot_w * high, y + (bar_h - 2) / 2)
            bars.append({"name": name, "y": y, "fill": fills[k], "mean": mean, "whisker": whisker})
        rows.append({"label": group, "y": y0 + group_h / 2, "bars": bars})
    return render(
        "bar_chart.svg.j2",
        chart_id=chart_id,
        label=label,
        width=width,
        height=30 + group_h * len(groups) + 20 * len(series),
        left=left,
        plot_w=plot_w,
        bar_h=bar_h,
        ticks=[(left + plot_w * tick / 10, tick / 10) for tick in range(0, 11, 2)],
        grid_bottom=20 + group_h * len(groups),
        groups=rows,
        legend=[
            (30 + group_h * len(groups) + 18 * k, fills[k], name)
            for k, (name, _) in enumerate(series)
        ],
    )


def leaderboard_section(board: Leaderboard, primary: str) -> str:
    ranks = board.ranks.get(primary, {})
    best = {metric: board.best(metric) for metric in board.metrics}
    rows = [
        {
            "place": place,
            "model": m,
            "ranks": ranks.get(m),
            "cells": [(board.get(m, metric), m in best[metric]) for metric in board.metrics],
        }
        for place, m in board.places(primary)
    ]
    return render(
        "leaderboard.html.j2",
        header=["rank", "model", "rank interval"]
        + [metric_heading(board, metric) for metric in board.metrics],
        rows=rows,
        level=f"{100 * board.settings.confidence:g}%",
        resamples=board.settings.resamples,
        seed=board.settings.seed,
        primary=primary,
        direction=board.spec(primary).direction_text,
        spread=board.spread(primary),
    )


def _heatmap_cell(board: Leaderboard, model: str, metric: str, language: str) -> dict[str, str]:
    cell = board.get(model, metric, language)
    value = None if cell is None else cell.unit(cell.mean)
    # the colour map runs from the bad end to the good end, reversed when lower is better, so
    # the good end has one colour for every metric
    good = None if value is None else (value if board.spec(metric).higher_is_better else 1 - value)
    return {
        "cls": "hm light" if good is None or good >= 0.6 else "hm",
        "colour": colour(good),
        "tip": "no score" if cell is None else format_cell(cell),
        "text": "–" if value is None else f"{value:.2f}",
    }


def heatmap_section(board: Leaderboard, primary: str) -> str:
    columns = [*board.languages, ALL]
    grids = [
        {
            "metric": metric,
            "direction": board.spec(metric).direction,
            "rows": [
                {"model": m, "cells": [_heatmap_cell(board, m, metric, la) for la in columns]}
                for m in board.ranking(metric)
            ],
        }
        for metric in board.metrics
    ]
    return render(
        "heatmap.html.j2",
        metrics=board.metrics,
        primary=primary,
        header=["model", *columns],
        grids=grids,
    )


def slice_section(board: Leaderboard, primary: str, dimension: str, title: str) -> str:
    values = board.slices(dimension)
    best = {v: board.best(primary, dimension, v) for v in values}
    rows = [
        {
            "model": m,
            "cells": [(board.cell(m, primary, dimension, v), m in best[v]) for v in values],
        }
        for m in board.ranking(primary)
    ]
    chart = ""
    if dimension == "category" and values:
        series = [
            (m, [board.cell(m, primary, dimension, v) for v in values])
            for m in board.ranking(primary)
        ]
        label = f"{primary} by {dimension}"
        chart = bar_chart(values, series, chart_id=f"{dimension}-bars", label=label)
    return render(
        "slice.html.j2",
        title=title,
        dimension=dimension,
        values=values,
        primary=primary,
        direction=board.spec(primary).direction_text,
        chart=Markup(chart),  # the SVG bar_chart rendered
        rows=rows,
    )


def translate_test_section(board: Leaderboard, primary: str) -> str:
    translated = {s: p for s, p in board.systems.items() if p[1] is not None}
    paired = {(c.model_a, c.model_b, c.metric): c for c in board.paired}
    rows = []
    for system, (model, translator) in translated.items():
        c = paired.get((model, system, primary)) or paired.get((system, model, primary))
        sign = 1 if c is not None and c.model_a == system else -1
        rows.append(
            {
                "model": model,
                "translator": translator,
                "direct": board.get(model, primary),
                "via": board.get(system, primary),
                "difference": f"{sign * c.result.difference:+.3f} (p={c.p_holm:.3g})" if c else "–",
            }
        )
    direction = board.spec(primary).direction_text
    header = ["model", "translator", "direct", "translate-test"]
    header.append(f"translate − direct (paired; {primary}: {direction})")
    return render("translate_test.html.j2", header=header, rows=rows)


SOURCES = {"grades": "grades file", "answers": "curated grades of answers"}


def _label(a: MetricAgreement) -> str:
    return a.metric if a.source == "grades" else f"{a.metric} ({a.source})"


def _ranked(ranking: RankingAgreement) -> list[tuple[str, int]]:
    """Models ordered by mean human grade, each with its judge rank."""
    by_human = sorted(ranking.human_means, key=lambda m: (-ranking.human_means[m], m))
    by_judge = sorted(ranking.judge_means, key=lambda m: (-ranking.judge_means[m], m))
    return [(m, by_judge.index(m) + 1) for m in by_human]


def agreement_section(agreement: list[MetricAgreement]) -> str:
    """The agreement figures, and above them an inline SVG of each metric's Spearman with the
    human grades on -1..1, with its interval."""
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
    chart = render(
        "agreement_chart.svg.j2",
        width=width,
        height=34 + bar_h * len(agreement),
        left=left,
        bar_h=bar_h,
        ticks=[(x(tick), tick) for tick in (-1.0, -0.5, 0.0, 0.5, 1.0)],
        bars=bars,
    )
    return render(
        "agreement.html.j2",
        agreement=agreement,
        label=_label,
        source=lambda a: SOURCES.get(a.source, a.source),
        ranked=_ranked,
        chart=Markup(chart if agreement else ""),  # the SVG rendered above
        figures=FIGURES,
    )


def cost_section(result: AggregateResult) -> str:
    """Each entry's tokens, cost and latency (`costs.cost_table`); none without recorded usage."""
    if not result.costs:
        return ""
    table = cost_table(result.costs, result.board.settings.confidence)
    front = ", ".join(result.front())
    return render("costs.html.j2", table=table, note=COST_NOTE, primary=result.primary, front=front)


def render_report(
    cfg: ParakhConfig,
    result: AggregateResult,
    *,
    provenance: dict[str, Any],
    answers_page: str | None,
    n_questions: int,
) -> str:
    """report.html of `result`; `provenance` says where its numbers come from, `answers_page`
    is the side-by-side answers page it links to (None: none written)."""
    board, primary = result.board, result.primary
    sections = [
        leaderboard_section(board, primary),
        gates_section(result.gates),
        heatmap_section(board, primary),
        slice_section(board, primary, "category", "By query category"),
        slice_section(board, primary, "domain", "By domain"),
        translate_test_section(board, primary),
        render(
            "paired.html.j2",
            tests=sorted(board.paired, key=lambda c: (c.metric != primary, c.metric)),
        ),
        agreement_section(result.agreement),
        bias_section(result.bias) if result.bias is not None else "",
        render(
            "counts.html.j2",
            metrics=board.metrics,
            rows=[(m, [board.get(m, metric) for metric in board.metrics]) for m in board.models],
        ),
        cost_section(result),
        render(
            "config.html.j2",
            provenance=yaml.safe_dump(provenance, sort_keys=True, allow_unicode=True),
            config=yaml.safe_dump(cfg.model_dump(mode="json"), sort_keys=False, allow_unicode=True),
        ),
    ]
    return render(
        "report.html.j2",
        title=f"Parakh report: {cfg.dataset.name}",
        script="heatmap.js",
        dataset=cfg.dataset.name,
        partial=None if result.partial is None else result.partial.text,
        answers_page=answers_page,
        smoke_test=cfg.judge.smoke_test,
        n_models=len(board.models),
        n_questions=n_questions,
        n_languages=len(board.languages),
        judge=cfg.judge.name,
        primary=primary,
        direction=board.spec(primary).direction_text,
        primary_note=result.primary_note,
        curation=None if result.curation is None else result.curation.text(),
        weighted=weights_line(board, cfg.aggregate.weights),
        sections=[Markup(section) for section in sections],  # rendered by the templates
    )
