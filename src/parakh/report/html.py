"""The self-contained HTML report: leaderboards with intervals, heatmaps, category bars,
direct vs translate-test, paired tests, judge-human agreement, counts and the config."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from parakh.report.agreement import MetricAgreement
from parakh.report.agreement_html import agreement_section
from parakh.report.html_parts import (
    bar_chart,
    colour,
    esc,
    is_light,
    page,
    partial_banner,
    table,
)
from parakh.report.judge_bias import JudgeBias, bias_section
from parakh.report.leaderboard import ALL, Cell, Leaderboard
from parakh.report.tables import format_cell, format_mean, metric_heading, weights_line


@dataclass
class ReportContext:
    """What the report says about where its numbers come from."""

    dataset: str
    judge: str
    smoke_test: bool
    primary: str
    weights: dict[str, float]
    config: dict[str, Any]
    provenance: dict[str, Any] = field(default_factory=dict)
    agreement: list[MetricAgreement] = field(default_factory=list)
    bias: JudgeBias | None = None
    answers_page: str | None = "answers.html"
    n_questions: int = 0
    primary_note: str | None = None
    partial: str | None = None  # a partial run's banner text; None: the run is complete


def _cell_html(cell: Cell | None, *, best: bool = False) -> str:
    """A cell: mean (percent of its scale unless 0..1), interval, counts; `best` marks the
    best mean of its column in the metric's direction."""
    if cell is None or cell.mean is None:
        text = "–"
    else:
        text = esc(format_mean(cell.mean, cell.scale_max))
        if (cell.scale_min, cell.scale_max) != (0.0, 1.0):
            text += f' <span class="ci">({cell.percent:.1f}%)</span>'
        if cell.ci_low is not None and cell.ci_high is not None:
            low, high = (format_mean(v, cell.scale_max) for v in (cell.ci_low, cell.ci_high))
            text += f'<br><span class="ci">[{esc(low)}, {esc(high)}]</span>'
    if cell is not None and (cell.invalid or cell.errors or cell.skipped):
        text += (
            f'<br><span class="counts" title="invalid / error / skipped rows">'
            f"{cell.invalid} inv · {cell.errors} err · {cell.skipped} skip</span>"
        )
    if best:
        return f'<td class="num best" title="best">{text}</td>'
    return f'<td class="num">{text}</td>'


def leaderboard_section(board: Leaderboard, primary: str) -> str:
    ranks = board.ranks.get(primary, {})
    best = {metric: board.best(metric) for metric in board.metrics}
    rows = []
    for place, m in board.places(primary):
        r = ranks.get(m)
        rows.append(
            [
                f'<td class="num">{place}</td>' if place else "–",
                esc(m),
                f'<td class="num">{r.low}–{r.high}</td>' if r else "–",
                *[
                    _cell_html(board.get(m, metric), best=m in best[metric])
                    for metric in board.metrics
                ],
            ]
        )
    level = f"{100 * board.settings.confidence:g}%"
    headings = [metric_heading(board, metric) for metric in board.metrics]
    return (
        '<h2 id="leaderboard-title">Leaderboard</h2>'
        + table(["rank", "model", "rank interval", *headings], rows, table_id="leaderboard")
        + f'<p class="note">Mean over scored rows on each metric\'s own scale (percent of the '
        f"scale in brackets where it is not 0..1), its {level} bootstrap interval over questions "
        f"({board.settings.resamples} resamples, seed {board.settings.seed}), and the rows "
        f"without a score: invalid, error, skipped. Ranked by <b>{esc(primary)}</b> "
        f"({esc(board.spec(primary).direction_text)}); ↑ marks a metric where higher is better, "
        f"↓ one where lower is better, and the best of each column is in bold. The rank "
        f"interval is the {level} range of each model's rank over the same resamples.</p>"
    )


def heatmap_section(board: Leaderboard, primary: str) -> str:
    options = "".join(
        f'<option value="{esc(m)}"{" selected" if m == primary else ""}>{esc(m)}</option>'
        for m in board.metrics
    )
    grids = []
    for metric in board.metrics:
        spec = board.spec(metric)
        rows = []
        for m in board.ranking(metric):
            cells = [esc(m)]
            for language in [*board.languages, ALL]:
                cell = board.get(m, metric, language)
                value = None if cell is None else cell.unit(cell.mean)
                # the colour map runs from the bad end to the good end, reversed when lower
                # is better, so the good end has one colour for every metric
                good = None if value is None else (value if spec.higher_is_better else 1 - value)
                tip = "no score" if cell is None else format_cell(cell)
                cls = "hm light" if is_light(good) else "hm"
                text = "–" if value is None else f"{value:.2f}"
                cells.append(
                    f'<td class="{cls}" style="background:{colour(good)}" '
                    f'title="{esc(tip)}">{text}</td>'
                )
            rows.append(cells)
        hidden = "" if metric == primary else " hidden"
        grids.append(
            f'<div class="heatmap-grid" data-metric="{esc(metric)}" '
            f'data-direction="{spec.direction}"{hidden}>'
            + table(["model", *board.languages, ALL], rows, cls="heatmap")
            + "</div>"
        )
    return (
        '<h2>Model × language</h2><section id="heatmap">'
        f'<label>metric <select id="heatmap-metric">{options}</select></label>'
        + "".join(grids)
        + '<p class="note">Each cell is the mean placed on 0..1 by its scale (min to max); '
        "bright yellow is the good end, whichever way the metric runs (the colours are "
        "reversed for a lower-is-better metric); hover for the interval and counts.</p>"
        "</section>"
    )


HEATMAP_SCRIPT = """
var hm=document.getElementById('heatmap-metric');
if(hm){hm.addEventListener('change',function(){
document.querySelectorAll('.heatmap-grid').forEach(function(g){
g.hidden=g.getAttribute('data-metric')!==hm.value;});});}
"""


def _scaled(cell: Cell | None) -> tuple[float | None, float | None, float | None]:
    if cell is None or cell.mean is None:
        return (None, None, None)
    return (cell.unit(cell.mean), cell.unit(cell.ci_low), cell.unit(cell.ci_high))


def slice_section(board: Leaderboard, primary: str, dimension: str, title: str) -> str:
    values = board.slices(dimension)
    if not values:
        return f"<h2>{esc(title)}</h2><p class='note'>No {esc(dimension)} labels in the data.</p>"
    series = [
        (m, [_scaled(board.cell(m, primary, dimension, v)) for v in values])
        for m in board.ranking(primary)
    ]
    best = {v: board.best(primary, dimension, v) for v in values}
    rows = [
        [
            esc(m),
            *[_cell_html(board.cell(m, primary, dimension, v), best=m in best[v]) for v in values],
        ]
        for m in board.ranking(primary)
    ]
    chart = (
        bar_chart(values, series, chart_id=f"{dimension}-bars", label=f"{primary} by {dimension}")
        if dimension == "category"
        else ""
    )
    return (
        f"<h2>{esc(title)} ({esc(primary)}, {esc(board.spec(primary).direction_text)})</h2>"
        + chart
        + table(["model", *values], rows, table_id=f"{dimension}-table")
    )


def translate_test_section(board: Leaderboard, primary: str) -> str:
    translated = {s: p for s, p in board.systems.items() if p[1] is not None}
    if not translated:
        return (
            '<h2>Direct vs translate-test</h2><p class="note" id="translate-test">All rows are '
            "direct inference (no translator); run with a translator to compare.</p>"
        )
    paired = {(c.model_a, c.model_b, c.metric): c for c in board.paired}
    rows = []
    for system, (model, translator) in translated.items():
        direct, via = board.get(model, primary), board.get(system, primary)
        c = paired.get((model, system, primary)) or paired.get((system, model, primary))
        sign = 1 if c is not None and c.model_a == system else -1
        diff = f"{sign * c.result.difference:+.3f} (p={c.p_holm:.3g})" if c else "–"
        rows.append([esc(model), esc(translator), _cell_html(direct), _cell_html(via), diff])
    direction = board.spec(primary).direction_text
    return "<h2>Direct vs translate-test</h2>" + table(
        [
            "model",
            "translator",
            "direct",
            "translate-test",
            f"translate − direct (paired; {primary}: {direction})",
        ],
        rows,
        table_id="translate-test",
    )


def paired_section(board: Leaderboard, primary: str) -> str:
    rows = []
    for c in sorted(board.paired, key=lambda c: (c.metric != primary, c.metric)):
        r = c.result
        interval = f"[{r.interval.low:.3f}, {r.interval.high:.3f}]" if r.interval else "–"
        rows.append(
            [
                esc(c.metric),
                esc(c.model_a),
                esc(c.model_b),
                f'<td class="num">{r.n}</td>',
                f'<td class="num">{r.difference:+.3f}</td>',
                f'<td class="num">{interval}</td>',
                esc(c.better or "tie"),
                f'<td class="num">{r.p_value:.4f}</td>',
                f'<td class="num">{c.p_holm:.4f}</td>',
            ]
        )
    if not rows:
        return "<h2>Paired tests</h2><p class='note'>Fewer than two models share items.</p>"
    return (
        "<h2>Paired tests</h2>"
        + table(
            [
                "metric",
                "model A",
                "model B",
                "items",
                "A − B",
                "interval",
                "better",
                "p",
                "p (Holm)",
            ],
            rows,
            table_id="paired",
        )
        + '<p class="note">On the questions both models were scored on: mean difference '
        "(weighted: per question over the metrics scored on it), the model whose mean is "
        "better in the metric's direction (the lower one for a lower-is-better rate), "
        "the difference's bootstrap interval, a "
        "two-sided sign-flip permutation p-value, and Holm's correction across the pairs of "
        "each metric.</p>"
    )


def counts_section(board: Leaderboard) -> str:
    rows = []
    for m in board.models:
        row = [esc(m)]
        for metric in board.metrics:
            c = board.get(m, metric)
            row.append(
                "–"
                if c is None
                else f'<td class="num">{c.n} ok · {c.invalid} inv · {c.errors} err · '
                f"{c.skipped} skip</td>"
            )
        rows.append(row)
    return "<h2>Rows without a score</h2>" + table(
        ["model", *board.metrics], rows, table_id="counts"
    )


def config_section(ctx: ReportContext) -> str:
    provenance = yaml.safe_dump(ctx.provenance, sort_keys=True, allow_unicode=True)
    config = yaml.safe_dump(ctx.config, sort_keys=False, allow_unicode=True)
    return (
        '<h2>Where these numbers come from</h2><section id="config">'
        f"<details open><summary>inputs and code</summary><pre>{esc(provenance)}</pre></details>"
        f"<details><summary>resolved config</summary><pre>{esc(config)}</pre></details>"
        "</section>"
    )


def render_report(board: Leaderboard, ctx: ReportContext) -> str:
    primary = ctx.primary
    nav = '<nav><a href="#leaderboard-title">leaderboard</a><a href="#heatmap">heatmap</a>'
    if ctx.answers_page:
        nav += f'<a href="{esc(ctx.answers_page)}">side-by-side answers</a>'
    nav += '<a href="#config">config</a></nav>'
    warning = (
        '<p class="warn"><b>Smoke-test judge.</b> Rubric scores come from a tiny local model '
        "and prove the pipeline runs; they say little about answer quality.</p>"
        if ctx.smoke_test
        else ""
    )
    spec = board.spec(primary)
    weighted = weights_line(board, ctx.weights)
    summary = (
        f'<p class="note" id="summary">{len(board.models)} models · {ctx.n_questions} questions · '
        f"{len(board.languages)} languages · judge <b>{esc(ctx.judge)}</b> · primary metric "
        f"<b>{esc(primary)}</b> ({esc(spec.direction_text)})"
        + (f" · {esc(ctx.primary_note)}" if ctx.primary_note else "")
        + (f" · {esc(weighted)}" if weighted else "")
        + ".</p>"
    )
    body = "".join(
        [
            f"<h1>Parakh report: {esc(ctx.dataset)}</h1>",
            partial_banner(ctx.partial),
            nav,
            warning,
            summary,
            leaderboard_section(board, primary),
            heatmap_section(board, primary),
            slice_section(board, primary, "category", "By query category"),
            slice_section(board, primary, "domain", "By domain"),
            translate_test_section(board, primary),
            paired_section(board, primary),
            agreement_section(ctx.agreement),
            bias_section(ctx.bias) if ctx.bias is not None else "",
            counts_section(board),
            config_section(ctx),
        ]
    )
    return page(f"Parakh report: {ctx.dataset}", body, HEATMAP_SCRIPT)
