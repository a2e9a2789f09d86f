"""Plots people would rather look at than read: a model x language heatmap, category bars,
and the data files behind `dvc plots`."""

from __future__ import annotations

from pathlib import Path

from parakh.io import atomic_open
from parakh.report.leaderboard import Leaderboard


def heatmap(board: Leaderboard, metric: str, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    models, languages = board.ranking(metric), board.languages
    values = np.full((len(models), len(languages)), np.nan)
    for i, m in enumerate(models):
        for j, la in enumerate(languages):
            cell = board.get(m, metric, la)
            if cell is not None and cell.mean is not None:
                values[i, j] = cell.mean / cell.scale_max
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(languages), 1.0 + 0.5 * len(models)))
    image = ax.imshow(values, vmin=0.0, vmax=1.0, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(languages)), languages)
    ax.set_yticks(range(len(models)), models)
    for i in range(len(models)):
        for j in range(len(languages)):
            if not np.isnan(values[i, j]):
                ax.text(
                    j,
                    i,
                    f"{values[i, j]:.2f}",
                    ha="center",
                    va="center",
                    color="white" if values[i, j] < 0.6 else "black",
                    fontsize=8,
                )
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    fig.tight_layout()
    with atomic_open(path, "wb") as f:
        fig.savefig(f, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)


def category_bars(board: Leaderboard, metric: str, path: Path, title: str) -> None:
    """Grouped horizontal bars: each category's 0..1 score per model, with bootstrap intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

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
            scale = cell.scale_max if cell else 1.0
            mean = cell.mean / scale if cell and cell.mean is not None else np.nan
            low = cell.ci_low / scale if cell and cell.ci_low is not None else mean
            high = cell.ci_high / scale if cell and cell.ci_high is not None else mean
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
    ax.set_xlabel(f"{metric} (scaled to 0..1)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    with atomic_open(path, "wb") as f:
        fig.savefig(f, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)


def plot_rows(board: Leaderboard, metric: str, dimension: str) -> list[dict[str, object]]:
    """Rows for `dvc plots`: one per (model, slice), `score` the metric scaled to 0..1 (a
    fixed field name, so dvc.yaml's plot definitions hold whichever metric is primary)."""
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
                    "score": round(cell.mean / cell.scale_max, 6),
                }
            )
    return rows
