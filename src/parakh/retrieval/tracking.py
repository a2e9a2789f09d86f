"""Retrieval metrics to MLflow: one run per (dataset, retriever, embedder).

Metric names are `<side>.<metric>.<language>` (`raw.recall_at_1.hi`, MLflow does not allow
`@`). A run is keyed by the hash of what it records, so re-running the index stage on unchanged
inputs logs nothing twice.
"""

from __future__ import annotations

from typing import Any

from parakh.hashing import sha256_obj
from parakh.tracking.mlflow_log import experiment_id, flatten, open_client


def mlflow_metrics(metrics: dict[str, Any]) -> dict[str, float]:
    """Flatten {"raw": {"recall@1": {"hi": 0.9}}} to {"raw.recall_at_1.hi": 0.9}."""
    out: dict[str, float] = {}
    for side, by_metric in sorted(metrics.items()):
        if not isinstance(by_metric, dict):
            continue
        for metric, by_language in sorted(by_metric.items()):
            for language, value in sorted(by_language.items()):
                out[f"{side}.{metric.replace('@', '_at_')}.{language}"] = float(value)
    return out


def log_retrieval_run(
    *,
    uri: str,
    experiment: str,
    dataset: str,
    retriever: str,
    embedder: str,
    tags: dict[str, str],
    params: dict[str, Any],
    metrics: dict[str, Any],
) -> str:
    """Log (or find, if already logged) the run; returns its id."""
    from mlflow.entities import Metric, Param

    client = open_client(uri)
    exp_id = experiment_id(client, experiment)
    values = mlflow_metrics(metrics)
    flat = flatten(params)
    run_key = sha256_obj({"dataset": dataset, "tags": tags, "params": flat, "metrics": values})
    found = client.search_runs(
        [exp_id], filter_string=f"tags.`parakh.run_key` = '{run_key}'", max_results=1
    )
    if found:
        return str(found[0].info.run_id)
    all_tags = {
        "dataset": dataset,
        "retriever": retriever,
        "embedder": embedder,
        "parakh.run_key": run_key,
        **tags,
    }
    run = client.create_run(exp_id, tags=all_tags, run_name=f"{dataset}/{retriever}/{embedder}")
    run_id = run.info.run_id
    metric_rows = [Metric(k, v, 0, 0) for k, v in sorted(values.items())]
    param_rows = [Param(k, v) for k, v in sorted(flat.items())]
    for i in range(0, max(len(metric_rows), len(param_rows)), 100):
        client.log_batch(run_id, metrics=metric_rows[i : i + 100], params=param_rows[i : i + 100])
    client.set_terminated(run_id)
    return str(run_id)
