"""Eight parallel jobs log to one real `mlflow server` (SQLite store, local artifact root) on
loopback, under one parent run for the sweep: every job's run holds every metric of its
ledger, its artifact and the parent link; eight jobs creating one experiment at once agree on
it."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import uuid
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from parakh.config import compose
from parakh.io import write_jsonl
from parakh.schema import Question, Retrieval, RetrievedChunk
from parakh.stages import generate
from parakh.tracking.client import (
    PARENT,
    PARENT_RUN_ENV,
    end_parent_run,
    experiment_id,
    open_client,
    start_parent_run,
)
from tests.support.servers import start_mlflow_server
from tests.support.together import run_together

pytestmark = [pytest.mark.slow, pytest.mark.server]
REPO = Path(__file__).resolve().parents[2]
JOBS = 8
MODELS = [f"model{k}" for k in range(JOBS)]


@pytest.fixture(scope="module")
def mlflow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`mlflow server` with a SQLite backend store and a local artifact root, on loopback."""
    with start_mlflow_server(tmp_path_factory.mktemp("mlflow-server"), workers=2) as server:
        yield server.url


def make_project(root: Path) -> Path:
    """conf/ of this checkout, 6 questions, and eight scripted models."""
    shutil.copytree(REPO / "conf", root / "conf")
    questions = [
        Question(id=f"q{i}", text=f"Question {i}?", language="en", asked_at=date(2024, 8, 1))
        for i in range(6)
    ]
    chunk = RetrievedChunk(chunk_id="c", text="A fact.", document_id="d", kind="raw", score=1.0)
    processed = root / "data" / "processed" / "demo"
    write_jsonl(processed / "curate" / "questions.jsonl", questions)
    write_jsonl(
        processed / "index" / "retrieval.jsonl",
        [Retrieval(question_id=q.id, raw_chunks=[chunk], kb_update_chunks=[]) for q in questions],
    )
    for k, name in enumerate(MODELS):
        model = {
            "name": name,
            "backend": "scripted",
            "default_response": f"Answer {k} to {{question}}",
            "prices": {"input_per_mtok": 1.0 + k, "output_per_mtok": 2.0},
        }
        (root / "conf" / "model" / f"{name}.yaml").write_text(json.dumps(model))
    return root


def _job(
    root: str, uri: str, parent: str, experiment: str, race: str, model: str, start: Any
) -> str:
    """One sweep job: all eight create the `race` experiment at once, then each runs generate
    for its model, logging to the server as a child of the sweep's parent run."""
    os.environ["PARAKH_ROOT"] = root
    os.environ[PARENT_RUN_ENV] = parent  # what the driver exports to its jobs
    os.environ["MLFLOW_TRACKING_URI"] = uri
    start.wait(timeout=60)
    race_id = experiment_id(open_client(uri), race)
    start.wait(timeout=60)
    overrides = [f"model={model}", f"tracking.experiment={experiment}"]
    cfg = compose(["dataset=demo", "progress=false", "generation.log_mlflow=true", *overrides])
    generate.main_task(cfg)
    return race_id


def test_eight_parallel_jobs_log_every_metric_under_one_parent_run(
    tmp_path: Path, mlflow_server: str
) -> None:
    root = make_project(tmp_path / "project")
    experiment, race = f"sweep-{uuid.uuid4().hex[:8]}", f"race-{uuid.uuid4().hex[:8]}"
    parent = start_parent_run(mlflow_server, experiment, "sweep/demo/generate", {"models": "8"})
    # Forked from a clean server process with the imports done, so the jobs start at once;
    # a plain fork of this worker, which holds MLflow's threads, could inherit a held lock.
    multiprocessing.get_context("forkserver").set_forkserver_preload(
        ["parakh.stages.generate", "parakh.tracking.client"]
    )
    race_ids = run_together(
        _job,
        [(str(root), mlflow_server, parent, experiment, race, m) for m in MODELS],
        method="forkserver",
        timeout_s=180,
    )
    end_parent_run(mlflow_server, parent)

    client = open_client(mlflow_server)
    assert len(set(race_ids)) == 1, "the eight jobs created the experiment once and agree on its id"
    assert [e.name for e in client.search_experiments(filter_string=f"name = '{race}'")] == [race]

    exp_id = client.get_experiment_by_name(experiment).experiment_id
    assert client.get_run(parent).info.status == "FINISHED"
    children = client.search_runs(
        [exp_id], filter_string=f"tags.`{PARENT}` = '{parent}'", max_results=100
    )
    assert sorted(r.data.tags["model"] for r in children) == MODELS
    for run in children:
        model = run.data.tags["model"]
        ledger = root / ".parakh" / "accounting" / "demo" / f"{model}.json"
        summary = json.loads(ledger.read_text())["summary"]
        expected = {
            f"generate.{k}": float(v)
            for k, v in summary.items()
            if isinstance(v, int | float) and not isinstance(v, bool)
        }
        assert "generate.cost_usd" in expected and expected["generate.items"] == 6
        assert run.data.metrics == expected, model
        assert run.info.status == "FINISHED" and run.info.run_name == f"{model} · generate · demo"
        artifacts = [a.path for a in client.list_artifacts(run.info.run_id, "accounting")]
        assert artifacts == [f"accounting/{model}.json"]
