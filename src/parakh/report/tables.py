"""The leaderboard as records, CSV, JSON and markdown: one set of rounded numbers for all.

`cell_records` is the single source of every published figure (CSV and JSON leaderboards,
`metrics.json`, markdown tables, MLflow metrics), so a cell carries the same value everywhere.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from parakh.report.leaderboard import ALL, DIMENSIONS, WEIGHTED, Cell, Leaderboard

DIGITS = 6
BEST_MARK = "★"
FIGURES = ("mean", "percent", "ci_low", "ci_high", "n", "invalid", "errors", "skipped")
KEY = ("model", "metric", "dimension", "value")
CSV_FIELDS = (*KEY, *FIGURES, "scale_min", "scale_max", "direction")
# the figures published rounded, and to how many digits
_DIGITS_OF = {"mean": DIGITS, "percent": 4, "ci_low": DIGITS, "ci_high": DIGITS}
_DIMENSION_ORDER = {d: i for i, d in enumerate((ALL, *DIMENSIONS))}


def _round(value: float | None, digits: int = DIGITS) -> float | None:
    return None if value is None else round(float(value), digits)


def cell_records(board: Leaderboard) -> list[dict[str, Any]]:
    """Every cell, ordered by model, metric, dimension and slice value."""
    model_order = {m: i for i, m in enumerate(board.models)}
    metric_order = {m: i for i, m in enumerate(board.metrics)}
    records = []
    for k in sorted(
        board.cells,
        key=lambda k: (model_order[k[0]], metric_order[k[1]], _DIMENSION_ORDER[k[2]], k[3]),
    ):
        record: dict[str, Any] = dict(zip(KEY, k, strict=True))
        for name in (*FIGURES, "scale_min", "scale_max"):
            value = getattr(board.cells[k], name)
            record[name] = _round(value, _DIGITS_OF[name]) if name in _DIGITS_OF else value
        records.append({**record, "direction": board.spec(k[1]).direction})
    return records


def paired_records(board: Leaderboard) -> list[dict[str, Any]]:
    return [
        {
            "metric": c.metric,
            "model_a": c.model_a,
            "model_b": c.model_b,
            "n": c.result.n,
            "mean_a": _round(c.result.mean_a),
            "mean_b": _round(c.result.mean_b),
            "difference": _round(c.result.difference),
            "better": c.better,
            "ci_low": _round(c.result.interval.low if c.result.interval else None),
            "ci_high": _round(c.result.interval.high if c.result.interval else None),
            "p_value": _round(c.result.p_value),
            "p_holm": _round(c.p_holm),
        }
        for c in board.paired
    ]


def metrics_dict(board: Leaderboard) -> dict[str, dict[str, dict[str, float]]]:
    """{model: {metric: {language or 'all': mean}}} for DVC metrics (None cells left out)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for r in cell_records(board):
        if r["mean"] is not None and r["dimension"] in (ALL, "language"):
            out.setdefault(r["model"], {}).setdefault(r["metric"], {})[r["value"]] = r["mean"]
    return out


def leaderboard_document(board: Leaderboard, **extra: Any) -> dict[str, Any]:
    """The JSON leaderboard: settings, each metric's declaration, every cell, rank intervals
    and paired tests."""
    declared = ("direction", "scale_min", "scale_max", "aggregation", "declared")
    return {
        "settings": {
            "seed": board.settings.seed,
            "bootstrap_resamples": board.settings.resamples,
            "confidence": board.settings.confidence,
            "permutations": board.settings.permutations,
        },
        "models": board.models,
        "metrics": board.metrics,
        "metric_specs": {
            m: {name: getattr(board.spec(m), name) for name in declared} for m in board.metrics
        },
        "languages": board.languages,
        "categories": board.categories,
        "domains": board.domains,
        "cells": cell_records(board),
        "ranks": [
            {"metric": metric, "model": m, "rank": r.rank, "rank_low": r.low, "rank_high": r.high}
            for metric, by_model in board.ranks.items()
            for m, r in by_model.items()
        ],
        "paired": paired_records(board),
        **extra,
    }


def csv_text(
    board: Leaderboard,
    extra: Mapping[str, str] | None = None,
    by_model: Mapping[str, Mapping[str, Any]] | None = None,
) -> str:
    """Every cell as a CSV row; `extra` columns (e.g. a partial run's marker) on each row, and
    `by_model` columns (e.g. its cost) on each row of the model."""
    extra, by_model = dict(extra or {}), dict(by_model or {})
    columns = [*CSV_FIELDS, *next(iter(by_model.values()), {}), *extra]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(
        {**record, **by_model.get(record["model"], {}), **extra} for record in cell_records(board)
    )
    return buffer.getvalue()


def weights_line(board: Leaderboard, weights: dict[str, float]) -> str | None:
    """ "Weighted aggregate: ..." naming only the weights of metrics present in the run, or
    None when the run has none of them (then there is no weighted aggregate)."""
    present = {m: w for m, w in weights.items() if m in board.metrics}
    if WEIGHTED not in board.metrics or not present:
        return None
    parts = ", ".join(f"{m} {w:g}" for m, w in present.items())
    flipped = [m for m in present if not board.spec(m).higher_is_better]
    note = "each metric mapped to 0..1 from its scale's min to max"
    if flipped:
        note += f"; lower-is-better {', '.join(flipped)} counted as 1 - that"
    return f"Weighted aggregate: {parts} ({note})"


def directions_line(board: Leaderboard) -> str:
    """Which metrics of the board are lower-is-better (all others are higher-is-better)."""
    lower = [m for m in board.metrics if not board.spec(m).higher_is_better]
    if not lower:
        return "Higher is better on every metric."
    return f"Lower is better: {', '.join(lower)}; higher is better on the other metrics."


def format_mean(value: float | None, scale_max: float) -> str:
    """A figure at display precision: 3 decimals on 0..1 or 0..2 scales, 1 on 0..100."""
    if value is None:
        return "–"
    return f"{value:.3f}" if scale_max <= 10 else f"{value:.1f}"


def format_cell(cell: Cell | None, *, interval: bool = True, best: bool = False) -> str:
    """Mean (percent of the scale unless it is 0..1) [interval] (unscored counts); `best`
    appends the best mark (the cell text still starts with the mean, for readers that parse
    it)."""
    if cell is None or cell.mean is None:
        text = "–"
    else:
        text = format_mean(cell.mean, cell.scale_max)
        if (cell.scale_min, cell.scale_max) != (0.0, 1.0) and cell.percent is not None:
            text += f" ({cell.percent:.1f}%)"
        if interval and cell.ci_low is not None and cell.ci_high is not None:
            low = format_mean(cell.ci_low, cell.scale_max)
            high = format_mean(cell.ci_high, cell.scale_max)
            text += f" [{low}, {high}]"
    counts = (cell.invalid, cell.errors, cell.skipped) if cell else (0, 0, 0)
    flags = [f"{n} {label}" for n, label in zip(counts, ("inv", "err", "skip"), strict=True) if n]
    if flags:
        text += f" ({', '.join(flags)})"
    if best and cell is not None and cell.mean is not None:
        text += f" {BEST_MARK}"
    return text


def metric_heading(board: Leaderboard, metric: str) -> str:
    """A column heading with an arrow for its direction (↑ higher, ↓ lower), for HTML; the
    markdown tables keep bare metric names and say the directions below the table."""
    return f"{metric} {'↑' if board.spec(metric).higher_is_better else '↓'}"


def overall_table(board: Leaderboard, primary: str | None = None) -> list[list[str]]:
    """Models ranked by the primary metric (best first in its direction), with rank intervals
    and every metric's cell; each column's best mean marked ★."""
    primary = primary or board.metrics[0]
    ranks = board.ranks.get(primary, {})
    header = ["rank", "model", "rank interval", *board.metrics]
    best = {x: board.best(x) for x in board.metrics}
    rows = []
    for place, m in board.places(primary):
        r = ranks.get(m)
        interval = f"{r.low}–{r.high}" if r else "–"
        cells = [format_cell(board.get(m, x), best=m in best[x]) for x in board.metrics]
        rows.append([str(place) if place else "–", m, interval, *cells])
    return [header, *rows]


def slice_table(board: Leaderboard, metric: str, dimension: str) -> list[list[str]]:
    """Models x slices of one dimension (language, category, domain) for one metric, ranked
    on the metric overall; each slice's best mean marked ★."""
    values = board.slices(dimension)
    header = ["model", *values, ALL]
    best = {v: board.best(metric, dimension, v) for v in values}
    best_all = board.best(metric)
    rows = [
        [
            m,
            *[format_cell(board.cell(m, metric, dimension, v), best=m in best[v]) for v in values],
            format_cell(board.get(m, metric), best=m in best_all),
        ]
        for m in board.ranking(metric)
    ]
    return [header, *rows]


def paired_table(board: Leaderboard, metric: str) -> list[list[str]]:
    level = f"{100 * board.settings.confidence:g}% CI"
    header = ["model A", "model B", "items", "A − B", level, "better", "p", "p (Holm)"]
    rows = []
    for c in board.paired:
        if c.metric != metric:
            continue
        r = c.result
        interval = f"[{r.interval.low:.3f}, {r.interval.high:.3f}]" if r.interval else "–"
        figures = [str(r.n), f"{r.difference:+.3f}", interval, c.better or "tie"]
        rows.append([c.model_a, c.model_b, *figures, f"{r.p_value:.4f}", f"{c.p_holm:.4f}"])
    return [header, *rows]


def markdown(table: list[list[str]]) -> str:
    header, *rows = table
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)
