"""`parakh score FILE --metrics em,f1 [--out DIR]`: score predictions made elsewhere exactly as
the judge stage scores its own.

FILE is a CSV or JSONL with `id`, `language` (the one the answer was requested in),
`prediction`, `reference` (or a list, `references`) and, for `nomiracl`, `subset`. Writes
DIR/scores.jsonl and DIR/summary.json; DIR defaults to `<FILE stem>.scores/` beside FILE.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from parakh.commands.grammar import add_out, list_value
from parakh.datasets.records import Record, file_records
from parakh.datasets.rows import RowError
from parakh.io import write_json, write_jsonl
from parakh.metrics.nomiracl import SUBSET_OF_METRIC, nomiracl_rates_from_rows
from parakh.metrics.registry import NOMIRACL, get_reference_metric, metric_names
from parakh.metrics.scoring import MetricScore, ScoreItem, resolve_metrics, score_item

ALL = "all"

HELP = "score predictions in a CSV/JSONL file as the judge stage does"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a .csv (with a header row) or .jsonl file")
    parser.add_argument(
        "--metrics",
        required=True,
        help="metric names or aliases, as [em,f1] or em,f1; e.g. em,f1,rougeL,chrf,chrf++,"
        f"embedding,lang,nomiracl (names: {', '.join(metric_names())})",
    )
    add_out(parser, "output folder")


def _references(record: Record, needed: bool) -> list[str]:
    field = "references" if "references" in record.values else "reference"
    value = record.values.get(field)
    if value is None or value == "":
        if needed:
            raise record.error(field, "missing reference", "missing_field")
        return []
    values = value if isinstance(value, list) else [value]
    if not all(isinstance(v, str) for v in values):
        raise record.error(field, "expected text or a list of texts")
    return [v for v in values if v.strip()]


def read_items(path: Path, metrics: Sequence[str]) -> list[ScoreItem]:
    """The rows of FILE as score items, checked; errors name file, line and field."""
    needs_reference = any(
        m != NOMIRACL and get_reference_metric(m).needs_reference for m in metrics
    )
    required = ["id", "language", "prediction"]
    required += ["reference"] if needs_reference else []
    required += ["subset"] if NOMIRACL in metrics else []
    items, seen = [], set()
    for record in file_records(path, required):
        row_id = record.text("id")
        if row_id in seen:
            raise record.error("id", f"duplicate id {row_id!r}", "duplicate_id")
        seen.add(row_id)
        prediction = record.values.get("prediction", ...)
        if prediction is ...:
            raise record.error("prediction", "missing required field", "missing_field")
        if prediction is not None and not isinstance(prediction, str):
            raise record.error("prediction", f"expected text, got {type(prediction).__name__}")
        subset = record.values.get("subset") or None
        if NOMIRACL in metrics and subset not in SUBSET_OF_METRIC.values():
            raise record.error("subset", f"expected relevant or non_relevant, got {subset!r}")
        items.append(
            ScoreItem(
                id=row_id,
                language=record.language("language"),
                prediction=prediction,
                references=_references(record, needs_reference),
                subset=subset,
                prediction_error=None if prediction is not None else "prediction is null",
            )
        )
    return items


def score_row(item: ScoreItem, scores: Sequence[MetricScore]) -> dict[str, Any]:
    row: dict[str, Any] = {"id": item.id, "language": item.language}
    if item.subset is not None:
        row["subset"] = item.subset
    row["scores"] = {s.metric: s.score for s in scores}
    row["status"] = {s.metric: s.status for s in scores}
    for key, field in (("labels", "label"), ("reasons", "reason")):
        found = {s.metric: getattr(s, field) for s in scores if getattr(s, field) is not None}
        if found:
            row[key] = found
    return row


def _cell(scores: list[MetricScore]) -> dict[str, Any]:
    scored = [s.score for s in scores if s.status == "ok" and s.score is not None]
    return {
        "mean": sum(scored) / len(scored) if scored else None,
        "n": len(scored),
        "invalid": sum(s.status == "invalid" for s in scores),
        "errors": sum(s.status == "error" for s in scores),
        "scale_max": scores[0].scale_max,
    }


def summarize(
    path: Path, metrics: Sequence[str], scored: Sequence[tuple[ScoreItem, list[MetricScore]]]
) -> dict[str, Any]:
    """Means over scored rows per metric and language (failures counted beside them), and
    NoMIRACL rates per language with their numerators and denominators."""
    groups: dict[str, dict[str, list[MetricScore]]] = defaultdict(lambda: defaultdict(list))
    verdicts: dict[str, list[MetricScore]] = defaultdict(list)  # NoMIRACL's, by language
    for item, scores in scored:
        for s in scores:
            for language in (item.language or "und", ALL):
                groups[s.metric][language].append(s)
                if s.metric in SUBSET_OF_METRIC:
                    verdicts[language].append(s)
    summary: dict[str, Any] = {
        "input": str(path),
        "rows": len(scored),
        "metrics": list(metrics),
        "by_metric": {
            metric: {language: _cell(rows) for language, rows in sorted(by_language.items())}
            for metric, by_language in sorted(groups.items())
        },
    }
    if NOMIRACL in metrics:
        summary["nomiracl"] = {
            language: nomiracl_rates_from_rows(
                (s.metric, s.status, s.label) for s in rows
            ).model_dump()
            for language, rows in sorted(verdicts.items())
        }
    return summary


def score_file(path: Path, metric_list: str, out: Path | None) -> tuple[Path, dict[str, Any]]:
    metrics = resolve_metrics(list_value(metric_list))
    if not metrics:
        raise RowError(path, "no metrics given (--metrics)", reason="invalid_value")
    items = read_items(path, metrics)
    if not items:  # nothing to score is a mistake (a wrong file, an empty export), not a result
        raise RowError(path, "has no rows to score", reason="empty_file")
    scored = [(item, score_item(metrics, item)) for item in items]
    folder = out or path.with_name(f"{path.stem}.scores")
    write_jsonl(folder / "scores.jsonl", [score_row(item, scores) for item, scores in scored])
    summary = summarize(path, metrics, scored)
    write_json(folder / "summary.json", summary)
    return folder, summary


def run(args: argparse.Namespace) -> int:
    folder, summary = score_file(args.file, args.metrics, args.out)
    for metric, by_language in summary["by_metric"].items():
        cell = by_language[ALL]
        mean = "–" if cell["mean"] is None else f"{cell['mean']:.4f}"
        print(
            f"{metric:<24} {mean:>8}  n={cell['n']} invalid={cell['invalid']} "
            f"errors={cell['errors']}"
        )
    for language, rates in summary.get("nomiracl", {}).items():
        h, e = rates["hallucination"], rates["error"]
        print(
            f"nomiracl {language:<4} hallucination {h['numerator']}/{h['denominator']}  "
            f"error {e['numerator']}/{e['denominator']}"
        )
    print(f"score: {summary['rows']} rows -> {folder}/scores.jsonl, {folder}/summary.json")
    return 0
