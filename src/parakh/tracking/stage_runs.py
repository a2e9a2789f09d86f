"""The MLflow run of a stage other than aggregate (curate's report, index's retrieval metrics,
generate's ledger): metrics stamped with the time they are logged, params flattened, and a
`keyed` run found again, not logged twice, while the hash of its tags, params and metrics (its
`parakh.run_key`) is unchanged.
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


@dataclass(frozen=True)
class StageRun:
    experiment: str
    name: str
    tags: Mapping[str, str]
    params: Mapping[str, Any] = field(default_factory=dict)
    metrics: Mapping[str, float] = field(default_factory=dict)
    artifacts: tuple[tuple[Path, str | None], ...] = ()  # (file, artifact folder or None)
    keyed: bool = True  # False: every call is a new run (a ledger of one execution)


def log_values(
    client: Any, run_id: str, params: Mapping[str, Any], metrics: Mapping[str, float]
) -> None:
    """`params` flattened and `metrics` stamped with the time now (log_batch splits them into
    the batches the store takes)."""
    from mlflow.entities import Metric, Param

    now = int(time.time() * 1000)
    client.log_batch(
        run_id,
        metrics=[Metric(k, float(v), now, 0) for k, v in sorted(metrics.items())],
        params=[Param(k, v) for k, v in sorted(flatten(dict(params)).items())],
    )


def log_stage_run(uri: str, run: StageRun) -> str:
    """Log `run` (or find it, if `keyed` and already logged); returns its run id."""
    client = open_client(uri)
    exp_id = experiment_id(client, run.experiment)
    tags = dict(run.tags)
    if run.keyed:
        params = flatten(dict(run.params))
        key = sha256_obj({"tags": tags, "params": params, "metrics": dict(run.metrics)})
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
