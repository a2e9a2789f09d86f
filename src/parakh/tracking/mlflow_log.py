"""MLflow logging: one run per (dataset, model, judge), every score a metric.

Tracking URI: `tracking.uri` if set, else MLFLOW_TRACKING_URI, else `sqlite:///mlflow.db` in the
project root. Runs are keyed by the hash of what they summarise, so re-running aggregate on
unchanged inputs logs nothing twice.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from parakh.hashing import sha256_obj
from parakh.paths import project_root


def tracking_uri(configured: str | None) -> str:
    if configured:
        return configured
    env = os.environ.get("MLFLOW_TRACKING_URI")
    if env:
        return env
    return f"sqlite:///{project_root() / 'mlflow.db'}"


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, f"{name}."))
        else:
            out[name] = str(value)[:6000]
    return out


def metric_name(metric: str, language: str) -> str:
    return f"{metric}.{language}"


def log_model_run(
    *,
    uri: str,
    experiment: str,
    dataset: str,
    model: str,
    judge: str,
    tags: dict[str, str],
    params: dict[str, Any],
    metrics: dict[str, dict[str, float]],
    artifacts: list[Path],
) -> str:
    """Log (or find, if already logged) the run of one (dataset, model, judge); returns its id."""
    import mlflow
    from mlflow.tracking import MlflowClient

    mlflow.set_tracking_uri(uri)
    client = MlflowClient(uri)
    exp = client.get_experiment_by_name(experiment)
    exp_id = exp.experiment_id if exp else client.create_experiment(experiment)
    run_key = sha256_obj(
        {
            "dataset": dataset,
            "model": model,
            "judge": judge,
            "tags": tags,
            "params": flatten(params),
            "metrics": metrics,
        }
    )
    found = client.search_runs(
        [exp_id], filter_string=f"tags.`parakh.run_key` = '{run_key}'", max_results=1
    )
    if found:
        return str(found[0].info.run_id)
    all_tags = {
        "dataset": dataset,
        "model": model,
        "judge": judge,
        "parakh.run_key": run_key,
        **tags,
    }
    run = client.create_run(exp_id, tags=all_tags, run_name=f"{dataset}/{model}/{judge}")
    run_id = run.info.run_id
    from mlflow.entities import Metric, Param

    flat = flatten(params)
    metric_rows = [
        Metric(metric_name(metric, language), value, 0, 0)
        for metric, by_language in sorted(metrics.items())
        for language, value in sorted(by_language.items())
    ]
    param_rows = [Param(k, v) for k, v in sorted(flat.items())]
    for i in range(0, max(len(metric_rows), len(param_rows)), 100):
        client.log_batch(run_id, metrics=metric_rows[i : i + 100], params=param_rows[i : i + 100])
    for path in artifacts:
        if path.exists():
            client.log_artifact(run_id, str(path), artifact_path="samples")
    client.set_terminated(run_id)
    return str(run_id)
