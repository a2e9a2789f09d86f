"""The report's judge-human agreement section: per metric and slice with bootstrap intervals,
a chart of each metric's rank correlation with the humans, and the two model rankings."""

from __future__ import annotations

from parakh.report.agreement import FIGURES, AgreementStats, MetricAgreement
from parakh.report.html_parts import colour, esc, table

NO_GRADES = (
    '<h2>Judge-human agreement</h2><p class="note" id="agreement">No human grades '
    "configured: set <code>aggregate.agreement.human_grades</code> to a JSONL of "
    "HumanGrade rows (or run <code>parakh agreement</code> on any grades file).</p>"
)
SOURCES = {"grades": "grades file", "answers": "curated grades of answers"}


def _inline(value: float | None, interval: list[float] | None) -> str:
    if value is None:
        return "–"
    text = f"{value:.3f}"
    if interval:
        text += f' <span class="ci">[{interval[0]:.3f}, {interval[1]:.3f}]</span>'
    return text


def _figure(value: float | None, interval: list[float] | None) -> str:
    return f'<td class="num">{_inline(value, interval)}</td>'


def stats_cells(s: AgreementStats) -> list[str]:
    return [
        f'<td class="num">{s.n_items}</td>',
        f'<td class="num">{s.n_pairs}</td>',
        *[_figure(getattr(s, f), s.intervals.get(f)) for f in FIGURES],
    ]


def _label(a: MetricAgreement) -> str:
    return esc(a.metric) if a.source == "grades" else f"{esc(a.metric)} ({esc(a.source)})"


def correlation_chart(agreement: list[MetricAgreement]) -> str:
    """Inline SVG: each metric's Spearman with the human grades on -1..1, with its interval."""
    width, left, bar_h = 760, 220, 16
    plot_w = width - left - 20
    height = 34 + bar_h * len(agreement)
    zero = left + plot_w / 2

    def x(value: float) -> float:
        return zero + plot_w / 2 * value

    parts = [
        '<svg id="agreement-chart" role="img" aria-label="Spearman of judge scores with human '
        f'grades" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-size="11" font-family="sans-serif">'
    ]
    for tick in (-1.0, -0.5, 0.0, 0.5, 1.0):
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="20" x2="{x(tick):.1f}" y2="{height - 10}" '
            f'stroke="{"#999" if tick == 0 else "#e3e3e3"}"/>'
            f'<text x="{x(tick):.1f}" y="14" text-anchor="middle">{tick:g}</text>'
        )
    for k, a in enumerate(agreement):
        y = 22 + k * bar_h
        rho = a.overall.spearman
        parts.append(
            f'<text x="{left - 6}" y="{y + bar_h / 2:.1f}" text-anchor="end" '
            f'dominant-baseline="middle">{_label(a)}</text>'
        )
        if rho is None:
            continue
        start, end = sorted((zero, x(rho)))
        parts.append(
            f'<rect x="{start:.1f}" y="{y}" width="{end - start:.1f}" height="{bar_h - 4}" '
            f'fill="{colour((rho + 1) / 2)}"><title>{esc(a.metric)}: Spearman {rho:.3f}'
            "</title></rect>"
        )
        interval = a.overall.intervals.get("spearman")
        if interval:
            yc = y + (bar_h - 4) / 2
            parts.append(
                f'<line x1="{x(interval[0]):.1f}" x2="{x(interval[1]):.1f}" y1="{yc:.1f}" '
                f'y2="{yc:.1f}" stroke="#111" stroke-width="1.2"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


def ranking_table(a: MetricAgreement) -> str:
    """Models ordered by mean human grade, beside their mean judge score and judge rank."""
    ranking = a.ranking
    if ranking is None:
        return ""
    by_human = sorted(ranking.human_means, key=lambda m: (-ranking.human_means[m], m))
    by_judge = sorted(ranking.judge_means, key=lambda m: (-ranking.judge_means[m], m))
    rows = [
        [
            f'<td class="num">{i}</td>',
            esc(m),
            f'<td class="num">{ranking.human_means[m]:.3f}</td>',
            f'<td class="num">{ranking.judge_means[m]:.4g}</td>',
            f'<td class="num">{by_judge.index(m) + 1}</td>',
        ]
        for i, m in enumerate(by_human, start=1)
    ]
    tau = _inline(ranking.kendall_tau, ranking.intervals.get("kendall_tau"))
    rho = _inline(ranking.spearman, ranking.intervals.get("spearman"))
    return (
        f"<h3>Model ranking: {_label(a)}</h3>"
        + table(["human rank", "model", "mean human grade", "mean judge score", "judge rank"], rows)
        + f"<p class='note'>Kendall τ of the two rankings {tau}, Spearman {rho} "
        "(intervals: bootstrap over questions).</p>"
    )


def agreement_section(agreement: list[MetricAgreement]) -> str:
    if not agreement:
        return NO_GRADES
    header = ["metric", "slice", "items", "pairs", "% agree", "κ", "κ linear", "α ordinal"]
    header += ["Spearman", "Kendall τ"]
    rows = []
    for a in agreement:
        label = _label(a)
        rows.append([label, "all", *stats_cells(a.overall)])
        rows += [[label, esc(la), *stats_cells(s)] for la, s in a.by_language.items()]
        rows += [[label, f"model {esc(m)}", *stats_cells(s)] for m, s in a.by_model.items()]
    notes = "".join(
        f"<li><b>{_label(a)}</b>: {esc(SOURCES.get(a.source, a.source))}; {esc(a.mapping)}; "
        f"{a.human_grades} human grades"
        + (
            ", not paired: "
            + esc(", ".join(f"{k} {v}" for k, v in a.unpaired_human_grades.items()))
            if a.unpaired_human_grades
            else ""
        )
        + "</li>"
        for a in agreement
    )
    rankings = "".join(ranking_table(a) for a in agreement)
    return (
        "<h2>Judge-human agreement</h2>"
        + correlation_chart(agreement)
        + table(header, rows, table_id="agreement")
        + f"<ul class='note'>{notes}</ul>"
        + "<p class='note'>In brackets: percentile bootstrap intervals over items (answers), "
        "seeded. Rank correlations need no common scale and are always given; agreement, κ "
        "and α only where both sides are on one declared grade scale.</p>" + rankings
    )
