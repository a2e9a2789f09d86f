"""The curation report: rows in and out, rows dropped per reason, labels and categories counted.

Written as JSON beside the curated questions, and logged to MLflow (experiment
`parakh-curation`, one run per dataset and report content) when a tracking URI is configured.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from parakh.hashing import sha256_obj
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


def tracking_configured(configured_uri: str | None) -> bool:
    return bool(configured_uri or os.environ.get("MLFLOW_TRACKING_URI"))


def log_report(
    report: Mapping[str, Any], params: Mapping[str, Any], report_path: Path, uri: str
) -> str:
    """Log the report as one MLflow run (found again, not duplicated, for the same content)."""
    from mlflow.entities import Metric, Param

    from parakh.tracking.mlflow_log import experiment_id, flatten, open_client

    client = open_client(uri)
    exp_id = experiment_id(client, CURATION_EXPERIMENT)
    run_key = sha256_obj({"report": report, "params": dict(params)})
    found = client.search_runs(
        [exp_id], filter_string=f"tags.`parakh.run_key` = '{run_key}'", max_results=1
    )
    if found:
        return str(found[0].info.run_id)
    run = client.create_run(
        exp_id,
        tags={"dataset": str(report["dataset"]), "stage": "curate", "parakh.run_key": run_key},
        run_name=f"curate/{report['dataset']}",
    )
    run_id = run.info.run_id
    metrics = [Metric(k, v, 0, 0) for k, v in sorted(report_metrics(report).items())]
    param_rows = [Param(k, v) for k, v in sorted(flatten(dict(params)).items())]
    for i in range(0, max(len(metrics), len(param_rows)), 100):
        client.log_batch(run_id, metrics=metrics[i : i + 100], params=param_rows[i : i + 100])
    client.log_artifact(run_id, str(report_path))
    client.set_terminated(run_id)
    return str(run_id)
