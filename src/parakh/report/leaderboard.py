"""Aggregate per-sample judge rows into per-model scores by metric and language.

Means are over scored rows only; invalid and error rows are counted beside every figure, never
folded into it. The weighted aggregate combines rubric metrics after scaling each to 0..1.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from parakh.schema import Judgment

ALL = "all"
WEIGHTED = "weighted"


@dataclass
class Cell:
    """One (model, metric, language) figure with its counts."""

    mean: float | None
    n: int
    invalid: int = 0
    errors: int = 0
    scale_max: float = 1.0
    skipped: int = 0

    @property
    def percent(self) -> float | None:
        return None if self.mean is None else 100.0 * self.mean / self.scale_max


@dataclass
class Leaderboard:
    models: list[str]
    metrics: list[str]
    languages: list[str]
    cells: dict[tuple[str, str, str], Cell] = field(default_factory=dict)

    def get(self, model: str, metric: str, language: str = ALL) -> Cell | None:
        return self.cells.get((model, metric, language))

    def ranking(self, metric: str = WEIGHTED) -> list[str]:
        def key(m: str) -> float:
            cell = self.get(m, metric)
            return -(cell.mean if cell and cell.mean is not None else float("-inf"))

        return sorted(self.models, key=lambda m: (key(m), m))


def _cell(rows: list[Judgment]) -> Cell:
    scored = [r.score for r in rows if r.status == "ok" and r.score is not None]
    return Cell(
        mean=sum(scored) / len(scored) if scored else None,
        n=len(scored),
        invalid=sum(r.status == "invalid" for r in rows),
        errors=sum(r.status == "error" for r in rows),
        skipped=sum(r.status == "skipped" for r in rows),
        scale_max=rows[0].scale_max if rows else 1.0,
    )


def weighted_cell(cells: dict[str, Cell], weights: dict[str, float]) -> Cell | None:
    """Weighted mean of the metrics' 0..1 scores, over the weighted metrics that have a score."""
    parts = [(w, cells[m]) for m, w in weights.items() if m in cells and cells[m].mean is not None]
    if not parts:
        return None
    total = sum(w for w, _ in parts)
    mean = sum(w * (c.mean or 0.0) / c.scale_max for w, c in parts) / total
    return Cell(
        mean=mean,
        n=min(c.n for _, c in parts),
        scale_max=1.0,
        invalid=sum(c.invalid for _, c in parts),
        errors=sum(c.errors for _, c in parts),
    )


def build_leaderboard(
    rows: list[Judgment], models: list[str], weights: dict[str, float]
) -> Leaderboard:
    groups: dict[tuple[str, str, str], list[Judgment]] = defaultdict(list)
    for r in rows:
        groups[(r.model, r.metric, r.language)].append(r)
        groups[(r.model, r.metric, ALL)].append(r)
    metrics = sorted({r.metric for r in rows}, key=lambda m: (m not in weights, m))
    languages = sorted({r.language for r in rows})
    board = Leaderboard(models=list(models), metrics=metrics, languages=languages)
    board.cells = {key: _cell(group) for key, group in groups.items()}
    if any(m in weights for m in metrics):
        for model in models:
            for language in [*languages, ALL]:
                by_metric = {
                    m: c for (mo, m, la), c in board.cells.items() if mo == model and la == language
                }
                cell = weighted_cell(by_metric, weights)
                if cell is not None:
                    board.cells[(model, WEIGHTED, language)] = cell
        board.metrics = [WEIGHTED, *metrics]
    return board


def metrics_dict(board: Leaderboard) -> dict[str, dict[str, dict[str, float]]]:
    """{model: {metric: {language: mean}}} for DVC metrics and MLflow (None cells left out)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for (model, metric, language), cell in sorted(board.cells.items()):
        if cell.mean is not None:
            out.setdefault(model, {}).setdefault(metric, {})[language] = round(cell.mean, 6)
    return out


def _fmt(cell: Cell | None) -> str:
    if cell is None or cell.mean is None:
        return "–"
    text = f"{cell.mean:.3f}" if cell.scale_max <= 2 else f"{cell.mean:.1f}"
    flags = []
    if cell.invalid:
        flags.append(f"{cell.invalid} inv")
    if cell.errors:
        flags.append(f"{cell.errors} err")
    return text + (f" ({', '.join(flags)})" if flags else "")


def overall_table(board: Leaderboard) -> list[list[str]]:
    header = ["rank", "model", *board.metrics]
    rows = [
        [str(i), m, *[_fmt(board.get(m, metric)) for metric in board.metrics]]
        for i, m in enumerate(board.ranking(board.metrics[0]), start=1)
    ]
    return [header, *rows]


def language_table(board: Leaderboard, metric: str) -> list[list[str]]:
    header = ["model", *board.languages, ALL]
    rows = [
        [m, *[_fmt(board.get(m, metric, la)) for la in [*board.languages, ALL]]]
        for m in board.ranking(metric)
    ]
    return [header, *rows]


def markdown(table: list[list[str]]) -> str:
    header, *rows = table
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def csv_rows(board: Leaderboard) -> list[dict[str, object]]:
    return [
        {
            "model": mo,
            "metric": me,
            "language": la,
            "mean": None if c.mean is None else round(c.mean, 6),
            "percent": None if c.percent is None else round(c.percent, 3),
            "n": c.n,
            "invalid": c.invalid,
            "errors": c.errors,
            "skipped": c.skipped,
        }
        for (mo, me, la), c in sorted(board.cells.items())
    ]
