"""Small pieces shared by the HTML pages: colours, a leaderboard figure's view, the bar chart.

Pages are self-contained (inline CSS, JS and SVG; no network, no external files) and
deterministic (no timestamps), so a re-run on the same inputs writes the same bytes. The markup
is in the Jinja2 templates (`parakh.report.templating`); these compute what they show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parakh.report.leaderboard import Cell
from parakh.report.tables import format_mean
from parakh.report.templating import render

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
MISSING_COLOUR = "#e6e6e6"


def colour(value: float | None) -> str:
    """viridis colour of a 0..1 value (grey when there is no value). Callers pass the value's
    goodness (1 - x for a lower-is-better metric), so bright yellow is always the good end."""
    if value is None:
        return MISSING_COLOUR
    x = min(1.0, max(0.0, value)) * 10.0
    i = min(9, int(x))
    t = x - i
    a, b = _VIRIDIS[i], _VIRIDIS[i + 1]
    r, g, bl = (round(a[k] + (b[k] - a[k]) * t) for k in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"


def is_light(value: float | None) -> bool:
    return value is None or value >= 0.6


@dataclass(frozen=True)
class ScoreCell:
    """A leaderboard figure as the report shows it (templates/macros.html.j2 `score_cell`):
    mean at display precision (None: no score), percent of its scale unless the scale is 0..1,
    interval, and the (invalid, error, skipped) counts when any is not zero."""

    mean: str | None
    percent: str | None = None
    interval: tuple[str, str] | None = None
    counts: tuple[int, int, int] | None = None
    best: bool = False


def score_cell(cell: Cell | None, *, best: bool = False) -> ScoreCell:
    """`cell` for the page; `best` marks the best mean of its column in the metric's direction."""
    counts = None
    if cell is not None and (cell.invalid or cell.errors or cell.skipped):
        counts = (cell.invalid, cell.errors, cell.skipped)
    if cell is None or cell.mean is None:
        return ScoreCell(None, counts=counts, best=best)
    percent = f"{cell.percent:.1f}" if (cell.scale_min, cell.scale_max) != (0.0, 1.0) else None
    interval = None
    if cell.ci_low is not None and cell.ci_high is not None:
        interval = (
            format_mean(cell.ci_low, cell.scale_max),
            format_mean(cell.ci_high, cell.scale_max),
        )
    return ScoreCell(format_mean(cell.mean, cell.scale_max), percent, interval, counts, best)


Bars = Sequence[tuple[float | None, float | None, float | None]]


def bar_chart(
    groups: Sequence[str],
    series: Sequence[tuple[str, Bars]],
    *,
    chart_id: str,
    label: str,
) -> str:
    """Inline SVG of horizontal bars on 0..1: per group one bar per series, with intervals.

    `series` is [(name, [(mean, low, high) per group])], values already scaled to 0..1.
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
            mean, low, high = values[g]
            if mean is None:
                continue
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
