"""A Hydra multirun whose jobs log to MLflow gets one parent run, made by a callback; the jobs
(here in joblib worker processes) inherit its id and become its children."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from parakh.tracking.client import LEVEL, PARENT, PARENT_RUN_ENV, open_client

from .test_mlflow_server import make_project

pytestmark = pytest.mark.slow
MODELS = ["model0", "model1", "model2"]


def _sweep(root: Path, uri: str, *overrides: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PARAKH_ROOT": str(root), "MLFLOW_TRACKING_URI": uri}
    env.pop(PARENT_RUN_ENV, None)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "parakh.stages.generate",
            "-m",
            "hydra/launcher=local",
            f"model={','.join(MODELS)}",
            "dataset=demo",
            "progress=false",
            *overrides,
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_logging_sweep_gets_one_parent_run_with_every_job_under_it(tmp_path: Path) -> None:
    root = make_project(tmp_path / "project")
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    done = _sweep(root, uri, "generation.log_mlflow=true")
    assert done.returncode == 0, done.stderr[-3000:]

    client = open_client(uri)
    experiment = client.get_experiment_by_name("parakh").experiment_id
    parents = client.search_runs([experiment], filter_string=f"tags.`{LEVEL}` = 'jobs'")
    assert len(parents) == 1
    parent = parents[0]
    assert parent.info.status == "FINISHED" and parent.info.run_name == "sweep generate"
    assert "model=model0,model1,model2" in parent.data.tags["parakh.sweep.overrides"]
    children = client.search_runs(
        [experiment], filter_string=f"tags.`{PARENT}` = '{parent.info.run_id}'"
    )
    assert sorted(r.data.tags["model"] for r in children) == MODELS


def test_a_sweep_that_logs_nothing_makes_no_parent_run(tmp_path: Path) -> None:
    root = make_project(tmp_path / "project")
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    done = _sweep(root, uri)
    assert done.returncode == 0, done.stderr[-3000:]
    assert not (tmp_path / "mlflow.db").exists()
