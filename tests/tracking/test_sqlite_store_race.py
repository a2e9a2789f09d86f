"""Parallel jobs logging to one new SQLite MLflow store (a Hydra sweep's first run, say): the
first process creates the tables while the others wait, and every job's run lands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.together import run_together

from parakh.tracking.client import experiment_id, open_client

JOBS = 4


def _job(uri: str, job: int, start: Any) -> None:
    start.wait(timeout=60)
    client = open_client(uri)
    run = client.create_run(experiment_id(client, "race"), run_name=f"job-{job}")
    client.log_metric(run.info.run_id, "score", float(job))
    client.set_terminated(run.info.run_id)


def test_jobs_opening_a_new_sqlite_store_together_all_log(tmp_path: Path) -> None:
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    run_together(_job, [(uri, j) for j in range(JOBS)])

    client = open_client(uri)
    runs = client.search_runs([experiment_id(client, "race")])
    assert sorted(r.data.metrics["score"] for r in runs) == [0.0, 1.0, 2.0, 3.0]
