"""Plots people would rather look at than read: a model x language heatmap."""

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
