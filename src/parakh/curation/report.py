"""The curation report: rows in and out, rows dropped per reason, labels and categories counted.

Written as JSON beside the curated questions, and logged to MLflow (experiment
`parakh-curation`, one run per dataset and report content) when a tracking URI is configured.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from parakh.schema import HumanJudgment, KBDocument, Question

CURATION_EXPERIMENT = "parakh-curation"


def _counts(values: Iterable[str]) -> dict[str, int]:
    return dict(sorted(Counter(values).items()))


def build_report(
    *,
    dataset: str,
    adapter: str,
    strict: bool,
    rows_in: int,
    questions: list[Question],
    dropped: Mapping[str, int],
    quarantined: int,
    documents: list[KBDocument],
    judgments: list[HumanJudgment],
    pii_matches: Mapping[str, int],
    pii_questions: int,
    language_disagreements: Mapping[str, int],
    merged_reference_answers: int,
    selection: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    label_sources: dict[str, dict[str, int]] = {}
    for q in questions:
        for label, source in q.label_source.items():
            bucket = label_sources.setdefault(label, {})
            bucket[source] = bucket.get(source, 0) + 1
    return {
        "dataset": dataset,
        "adapter": adapter,
        "strict": strict,
        "rows_in": rows_in,
        "rows_out": len(questions),
        "selection": dict(selection or {}),
        "dropped": dict(sorted((k, v) for k, v in dropped.items() if v)),
        "quarantined": quarantined,
        "languages": _counts(q.language for q in questions),
        "scripts": _counts(q.script or "Unknown" for q in questions),
        "romanized": sum(q.romanized for q in questions),
        "code_mixed": sum(q.code_mixed for q in questions),
        "label_sources": {k: dict(sorted(v.items())) for k, v in sorted(label_sources.items())},
        "language_disagreements": dict(language_disagreements),
        "categories": _counts(c for q in questions for c in q.categories),
        "category_sources": _counts(s for q in questions for s in q.category_sources.values()),
        "answerable": sum(q.answerable for q in questions),
        "pii": {"questions_redacted": pii_questions, "matches": dict(sorted(pii_matches.items()))},
        "merged_reference_answers": merged_reference_answers,
        "kb_documents": _counts(d.kind for d in documents),
        "human_judgments": len(judgments),
    }


def report_metrics(report: Mapping[str, Any]) -> dict[str, float]:
    """Flat numeric view of a report for MLflow: `rows_out`, `dropped.duplicate_text`, ..."""
    metrics: dict[str, float] = {
        "rows_in": report["rows_in"],
        "rows_out": report["rows_out"],
        "quarantined": report["quarantined"],
        "romanized": report["romanized"],
        "code_mixed": report["code_mixed"],
        "human_judgments": report["human_judgments"],
    }
    for group in ("dropped", "languages", "categories", "kb_documents"):
        for key, value in report[group].items():
            metrics[f"{group}.{key}"] = value
    for kind, value in report["pii"]["matches"].items():
        metrics[f"pii.{kind}"] = value
    return {name.replace(">", "_"): float(v) for name, v in metrics.items()}
