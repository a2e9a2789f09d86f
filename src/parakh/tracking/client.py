"""The MLflow client every Parakh run goes through: where the store is, the experiment, the
parent run of a sweep. Nothing here knows what a run holds (`mlflow_log` for aggregate's,
`stage_runs` for the other stages'), so a stage that only logs its own numbers imports this,
not the report.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

from parakh.project import project_root

RUN_KEY = "parakh.run_key"
LEVEL = "parakh.level"
COMPLETE = "parakh.complete"
PARAMS_CUT = "parakh.params_cut"
PARENT = "mlflow.parentRunId"
PARENT_RUN_ENV = "PARAKH_MLFLOW_PARENT_RUN_ID"


def tracking_uri(configured: str | None) -> str:
    env = os.environ.get("MLFLOW_TRACKING_URI")
    return configured or env or f"sqlite:///{project_root() / 'mlflow.db'}"


def tracking_configured(configured: str | None) -> bool:
    """Whether the user asked for MLflow (`tracking.uri` or MLFLOW_TRACKING_URI): the stages
    other than aggregate log only then."""
    return bool(configured or os.environ.get("MLFLOW_TRACKING_URI"))


def open_client(uri: str) -> Any:
    """An MlflowClient for `uri`, its store ready.

    A new SQLite store is created (tables, then schema migrations) by the first client that
    touches it; parallel jobs (a Hydra launcher's workers) doing that at once collide ("duplicate
    column", alembic's "expected to match one row"). So the first touch of a SQLite store holds
    an exclusive lock on `<db>.lock` beside it: one process creates, the others then find it
    made. Tracking servers serialise this themselves.
    """
    from mlflow.tracking import MlflowClient

    if not uri.startswith("sqlite:///"):
        return MlflowClient(uri)
    database = Path(uri.removeprefix("sqlite:///"))
    database.parent.mkdir(parents=True, exist_ok=True)
    with open(database.with_name(database.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            client = MlflowClient(uri)  # creates and migrates a new store
            client.search_experiments(max_results=1)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return client


def experiment_id(client: Any, name: str) -> str:
    """The id of the named experiment, created if absent (by this process or, in a sweep whose
    jobs start together, by another one between the lookup and the create).

    Callers pass the tracking URI to `open_client` and never call `mlflow.set_tracking_uri`,
    which writes MLFLOW_TRACKING_URI into os.environ for every later subprocess to inherit.
    """
    from mlflow.exceptions import MlflowException

    exp = client.get_experiment_by_name(name)
    if exp is not None:
        return str(exp.experiment_id)
    try:
        return str(client.create_experiment(name))
    except MlflowException:
        exp = client.get_experiment_by_name(name)  # another job created it first
        if exp is None:
            raise
        return str(exp.experiment_id)


def parent_run_tags() -> dict[str, str]:
    """The tag that makes a run the child of its sweep's parent run, when the job runs under a
    driver that exported the parent's id as PARAKH_MLFLOW_PARENT_RUN_ID (`start_parent_run`)."""
    parent = os.environ.get(PARENT_RUN_ENV)
    return {PARENT: parent} if parent else {}


def start_parent_run(
    uri: str, experiment: str, name: str, tags: dict[str, str] | None = None
) -> str:
    """Create the parent run of a sweep whose jobs log in parallel (SLURM, joblib); give its id
    to the jobs as PARAKH_MLFLOW_PARENT_RUN_ID, and end it with `end_parent_run`."""
    client = open_client(uri)
    run = client.create_run(
        experiment_id(client, experiment), tags={LEVEL: "jobs", **(tags or {})}, run_name=name
    )
    return str(run.info.run_id)


def end_parent_run(uri: str, run_id: str, *, failed: bool = False) -> None:
    open_client(uri).set_terminated(run_id, status="FAILED" if failed else "FINISHED")
