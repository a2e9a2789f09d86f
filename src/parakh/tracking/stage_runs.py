"""The MLflow run of one stage that is not aggregate: curate's report, index's retrieval
metrics, generate's ledger of tokens, latency and cost.

The stage computes what to log; this module is the one place that talks to MLflow for them, so
every run gets the same treatment: metrics stamped with the time they are logged, params
flattened (`retriever.top_k`), a run found again instead of logged twice when `keyed` and
nothing it records has changed (the hash of tags, params and metrics is its `parakh.run_key`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parakh.hashing import sha256_obj
from parakh.tracking.client import RUN_KEY, experiment_id, open_client
from parakh.tracking.params import flatten

_BATCH = 100  # MLflow's log_batch takes at most 1,000 metrics and 100 params a call


@dataclass(frozen=True)
class StageRun:
    experiment: str
    name: str
    tags: Mapping[str, str]
    params: Mapping[str, Any] = field(default_factory=dict)
    metrics: Mapping[str, float] = field(default_factory=dict)
    artifacts: tuple[tuple[Path, str | None], ...] = ()  # (file, artifact folder or None)
    keyed: bool = True  # False: every call is a new run (a ledger of one execution)

    def run_key(self) -> str:
        tags, metrics = dict(self.tags), dict(self.metrics)
        return sha256_obj({"tags": tags, "params": flatten(dict(self.params)), "metrics": metrics})


def log_values(
    client: Any, run_id: str, params: Mapping[str, Any], metrics: Mapping[str, float]
) -> None:
    """`params` flattened and `metrics` stamped with the time now, logged in batches."""
    from mlflow.entities import Metric, Param

    now = int(time.time() * 1000)
    metric_list = [Metric(k, float(v), now, 0) for k, v in sorted(metrics.items())]
    param_list = [Param(k, v) for k, v in sorted(flatten(dict(params)).items())]
    for i in range(0, max(len(metric_list), len(param_list)), _BATCH):
        client.log_batch(
            run_id, metrics=metric_list[i : i + _BATCH], params=param_list[i : i + _BATCH]
        )


def log_stage_run(uri: str, run: StageRun) -> str:
    """Log `run` (or find it, if `keyed` and already logged); returns its run id."""
    client = open_client(uri)
    exp_id = experiment_id(client, run.experiment)
    tags = dict(run.tags)
    if run.keyed:
        key = run.run_key()
        found = client.search_runs(
            [exp_id], filter_string=f"tags.`{RUN_KEY}` = '{key}'", max_results=1
        )
        if found:
            return str(found[0].info.run_id)
        tags[RUN_KEY] = key
    run_id = str(client.create_run(exp_id, tags=tags, run_name=run.name).info.run_id)
    log_values(client, run_id, run.params, run.metrics)
    for path, folder in run.artifacts:
        client.log_artifact(run_id, str(path), artifact_path=folder)
    client.set_terminated(run_id)
    return run_id
