"""A real MLflow tracking server on loopback (SQLite backend, proxied artifacts), and a
synthetic project whose aggregate stage logs to it through MLFLOW_TRACKING_URI."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.report.synthetic_project import make_project
from tests.support.servers import start_mlflow_server

BIN = Path(sys.executable).parent


@pytest.fixture(scope="session")
def mlflow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`mlflow server` with a SQLite store; yields its URL, stops it at the end."""
    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")
    with start_mlflow_server(tmp_path_factory.mktemp("mlflow-server")) as server:
        yield server.url


def run_parakh(
    args: list[str], root: Path, uri: str, *, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run `python -m <args>` in the project at `root`, logging to the tracking server."""
    env = {
        **os.environ,
        "PARAKH_ROOT": str(root),
        "MLFLOW_TRACKING_URI": uri,
        "MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR": "false",
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
    }
    out = subprocess.run(
        [sys.executable, "-m", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if check:
        assert out.returncode == 0, f"{args} failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


@pytest.fixture(scope="session")
def logged_project(tmp_path_factory: pytest.TempPathFactory, mlflow_server: str) -> Path:
    """The synthetic project after `parakh aggregate` logged it to the server."""
    folder = tmp_path_factory.mktemp("tracked")
    root = make_project(folder / "project")
    run_parakh(
        ["parakh.stages.aggregate", f"tracking.experiment={experiment_of(root)}"],
        root,
        mlflow_server,
    )
    return root


def experiment_of(root: Path) -> str:
    """One MLflow experiment per test project, so modules sharing the server stay apart."""
    return f"parakh-{root.parent.name}"
