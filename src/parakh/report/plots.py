"""Plots people would rather look at than read: a model x language heatmap, category bars,
and the data files behind `dvc plots`.

Values are placed on 0..1 by their metric's scale (min to max, so a 1..5 rubric's 1 is 0).
A lower-is-better metric keeps its values and reverses the colour map, so the good end is
the same colour for every metric.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from parakh.io import atomic_open
from parakh.report.leaderboard import Leaderboard

COLOUR_MAP = "viridis"


@dataclass(frozen=True)
class HeatmapData:
    """Models (best first) x languages, each cell the mean on 0..1 (NaN: no score), and the
    colour map that puts the good end at viridis' bright yellow."""

    models: list[str]
    languages: list[str]
    values: np.ndarray
    colour_map: str
    label: str


def heatmap_data(board: Leaderboard, metric: str) -> HeatmapData:
    spec = board.spec(metric)
    models, languages = board.ranking(metric), board.languages
    values = np.full((len(models), len(languages)), np.nan)
    for i, m in enumerate(models):
        for j, la in enumerate(languages):
            cell = board.get(m, metric, la)
            if cell is not None and cell.mean is not None:
                values[i, j] = cell.unit(cell.mean)
    colour_map = COLOUR_MAP if spec.higher_is_better else f"{COLOUR_MAP}_r"
    return HeatmapData(models, languages, values, colour_map, f"{metric} ({spec.direction_text})")


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (no display), imported when a plot is drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, fig: Any, path: Path, dpi: int) -> None:
    """Write `fig` as a PNG without a timestamp or version in it (same bytes on a re-run)."""
    fig.tight_layout()
    with atomic_open(path, "wb") as f:
        fig.savefig(f, format="png", dpi=dpi, metadata={"Software": None})
    plt.close(fig)


def heatmap(board: Leaderboard, metric: str, path: Path, title: str) -> None:
    plt = _pyplot()
    data = heatmap_data(board, metric)
    models, languages, values = data.models, data.languages, data.values
    higher = board.spec(metric).higher_is_better
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(languages), 1.0 + 0.5 * len(models)))
    image = ax.imshow(values, vmin=0.0, vmax=1.0, cmap=data.colour_map, aspect="auto")
    ax.set_xticks(range(len(languages)), languages)
    ax.set_yticks(range(len(models)), models)
    for i in range(len(models)):
        for j in range(len(languages)):
            if not np.isnan(values[i, j]):
                good = values[i, j] if higher else 1 - values[i, j]
                colour = "black" if good >= 0.6 else "white"
                text = f"{values[i, j]:.2f}"
                ax.text(j, i, text, ha="center", va="center", color=colour, fontsize=8)
    ax.set_title(title, fontsize=10)
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label(data.label, fontsize=8)
    _save(plt, fig, path, dpi=110)


def category_bars(board: Leaderboard, metric: str, path: Path, title: str) -> None:
    """Grouped horizontal bars: each category's 0..1 score per model (min..max of the scale),
    with bootstrap intervals; models best first."""
    plt = _pyplot()
    categories = board.categories or ["all"]
    dimension = "category" if board.categories else "all"
    models = board.ranking(metric)
    height = 0.8 / max(1, len(models))
    fig, ax = plt.subplots(figsize=(7.0, 1.0 + 0.35 * len(categories) * max(1, len(models))))
    y = np.arange(len(categories))
    for k, m in enumerate(models):
        means, lows, highs = [], [], []
        for c in categories:
            cell = board.cell(m, metric, dimension, c)
            mean = cell.unit(cell.mean) if cell and cell.mean is not None else np.nan
            low = cell.unit(cell.ci_low) if cell and cell.ci_low is not None else mean
            high = cell.unit(cell.ci_high) if cell and cell.ci_high is not None else mean
            means.append(mean)
            lows.append(mean - low)
            highs.append(high - mean)
        ax.barh(
            y + k * height,
            means,
            height=height,
            xerr=[np.nan_to_num(lows), np.nan_to_num(highs)],
            label=m,
            capsize=2,
        )
    ax.set_yticks(y + height * (len(models) - 1) / 2, categories)
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel(f"{metric} (scaled to 0..1, {board.spec(metric).direction_text})")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    _save(plt, fig, path, dpi=100)


def plot_rows(board: Leaderboard, metric: str, dimension: str) -> list[dict[str, object]]:
    """Rows for `dvc plots`: one per (model, slice), `score` the metric placed on 0..1 by its
    scale (a fixed field name, so dvc.yaml's plot definitions hold whichever metric is
    primary) and `direction` "higher" or "lower" (which way is better)."""
    direction = board.spec(metric).direction
    rows: list[dict[str, object]] = []
    for m in board.models:
        for value in board.slices(dimension):
            cell = board.cell(m, metric, dimension, value)
            if cell is None or cell.mean is None:
                continue
            rows.append(
                {
                    "model": m,
                    dimension: value,
                    "slice": f"{m} · {value}",
                    "metric": metric,
                    "score": round(cell.unit(cell.mean), 6),
                    "direction": direction,
                }
            )
    return rows


def cost_front(
    board: Leaderboard,
    metric: str,
    costs: list[dict[str, Any]],
    front: set[str],
    path: Path,
    title: str,
) -> None:
    """The metric's mean against generation cost per 1,000 questions with both intervals, a
    point per priced, scored entry (`costs.cost_records`); those on the front (no other is
    cheaper and better) in red, joined, marked ★. Without one, a note saying so."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.0, 4.5))
    placed = []
    for record in costs:
        g, cell = record["generate"], board.get(record["model"], metric)
        if g["cost_per_1k_questions"] is None or cell is None or cell.mean is None:
            continue
        x, y = g["cost_per_1k_questions"], cell.mean
        x_err = _spread(x, g["cost_per_1k_questions_ci_low"], g["cost_per_1k_questions_ci_high"])
        on_front = record["model"] in front
        colour = "C3" if on_front else "C0"
        y_err = _spread(y, cell.ci_low, cell.ci_high)
        ax.errorbar(x, y, xerr=x_err, yerr=y_err, fmt="o", capsize=2, color=colour)
        label = record["model"] + (" ★" if on_front else "")
        ax.annotate(label, (x, y), xytext=(4, 4), textcoords="offset points", fontsize=8)
        placed.append((x, y, on_front))
    line = sorted((x, y) for x, y, on_front in placed if on_front)
    if line:
        ax.plot(*zip(*line, strict=True), color="C3", linewidth=1, alpha=0.6)
    else:
        ax.text(0.5, 0.5, "no model has prices and a score", ha="center", transform=ax.transAxes)
    ax.set_xlabel("generation cost per 1,000 questions (USD)")
    ax.set_ylabel(f"{metric} ({board.spec(metric).direction_text})")
    ax.set_title(title, fontsize=10)
    _save(plt, fig, path, dpi=100)


def _spread(value: float, low: float | None, high: float | None) -> list[list[float]]:
    """An error bar's lengths below and above `value` (none without an interval)."""
    return [[value - (value if low is None else low)], [(value if high is None else high) - value]]
