"""`parakh reproduce` rebuilds a leaderboard from an MLflow run id or a DVC experiment, and the
numbers come out identical."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from tests.report.synthetic_project import make_project
from tests.tracking.conftest import BIN, experiment_of, run_parakh

from parakh.tracking.metric_names import figures_of
from parakh.tracking.reproduce import compare

pytestmark = pytest.mark.slow
REPORTS = Path("reports/demo/smoke")  # reports/<dataset>/<judge>/


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


@pytest.mark.server
def test_reproduce_from_an_mlflow_run_id(
    logged_project: Path, mlflow_server: str, tmp_path: Path
) -> None:
    from mlflow.tracking import MlflowClient

    client = MlflowClient(mlflow_server)
    experiment = client.get_experiment_by_name(experiment_of(logged_project))
    child = client.search_runs(
        [experiment.experiment_id], filter_string="tags.model = 'beta'", max_results=1
    )[0]
    output = tmp_path / "rebuilt"
    out = run_parakh(
        ["parakh.cli", "reproduce", "--mlflow-run", child.info.run_id, "--out", str(output)],
        logged_project,
        mlflow_server,
    )
    assert "figures identical" in out.stdout, out.stdout
    assert _cells(output / "leaderboard.json") == _cells(
        logged_project / REPORTS / "leaderboard.json"
    )
    assert (output / "leaderboard.csv").read_bytes() == (
        logged_project / REPORTS / "leaderboard.csv"
    ).read_bytes()
    assert (output / "report.html").is_file()


def test_compare_flags_changed_missing_and_extra_figures() -> None:
    document = json.loads(json.dumps(_document()))
    expected = figures_of(document, ["alpha"])
    assert set(expected) == {"alpha", "alpha/all", "alpha/cells", "sweep"}
    assert expected["alpha"] == {"chrf.all": 50.0}  # what metrics.json holds
    assert expected["alpha/all"] == {
        "chrf": 50.0,
        "chrf_ci_low": 40.0,
        "chrf_ci_high": 60.0,
        "chrf_n": 10.0,
    }
    assert compare(expected, expected)[1] == []
    recorded = json.loads(json.dumps(expected))
    recorded["alpha/cells"]["chrf.all"] += 1e-6
    del recorded["alpha/cells"]["chrf.all.n"]
    recorded["alpha/cells"]["made.up"] = 1.0
    recorded["alpha/all"]["chrf_n"] = 11.0
    recorded["alpha/hi"] = {"chrf": 1.0}  # a run the leaderboard has no figures for
    compared, differences = compare(expected, recorded)
    assert {(d.run, d.name) for d in differences} == {
        ("alpha/cells", "chrf.all"),
        ("alpha/cells", "chrf.all.n"),
        ("alpha/cells", "made.up"),
        ("alpha/all", "chrf_n"),
        ("alpha/hi", "chrf"),
    }
    assert compared == sum(len(figures) for figures in expected.values()) + 2


def _document() -> dict:
    cell = {
        "model": "alpha",
        "metric": "chrf",
        "dimension": "all",
        "value": "all",
        "mean": 50.0,
        "percent": 50.0,
        "ci_low": 40.0,
        "ci_high": 60.0,
        "n": 10,
        "invalid": 0,
        "errors": 1,
        "skipped": 0,
    }
    return {"cells": [cell], "ranks": [], "paired": [], "agreement": [], "primary_metric": "chrf"}


def _git(root: Path, env: dict[str, str], *args: str) -> str:
    out = subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, f"{args}:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}"
    return out.stdout


def _add_graders(root: Path) -> None:
    """grading/demo: asha's and ravi's grades of beta's factual correctness (they differ on
    one answer), read by aggregate and listed among its deps as docs/grading.md says."""
    folder = root / "grading" / "demo"
    folder.mkdir(parents=True)
    for rater, first_score in (("asha", 2), ("ravi", 0)):
        grades = [
            {"question_id": f"q{i:02d}", "model": "beta", "metric": "factual_correctness"}
            | {"score": first_score if i == 0 else i % 3, "rater": rater}
            for i in range(6)
        ]
        (folder / f"{rater}.jsonl").write_text("".join(json.dumps(g) + "\n" for g in grades))
    conf = root / "conf" / "aggregate" / "default.yaml"
    conf.write_text(
        conf.read_text().replace("human_grades: null", 'human_grades: "grading/${dataset.name}"')
    )
    stages = yaml.safe_load((root / "dvc.yaml").read_text())
    stages["stages"]["aggregate"]["do"]["deps"].append("grading/${item}")
    (root / "dvc.yaml").write_text(yaml.safe_dump(stages))


def test_reproduce_from_a_dvc_experiment(tmp_path: Path) -> None:
    """Two experiments on different judge rows, the second with a folder of graders' files;
    each reproduces exactly from its own data."""
    root = make_project(tmp_path / "project")
    stages = yaml.safe_load((Path(__file__).parents[2] / "dvc.yaml").read_text())
    stage = stages["stages"]["aggregate"]
    stage["do"]["deps"] = [d for d in stage["do"]["deps"] if not d.startswith("src/")]
    stage["do"]["cmd"] += " tracking.enabled=false"
    (root / "dvc.yaml").write_text(yaml.safe_dump({"stages": {"aggregate": stage}}))
    env = {
        **os.environ,
        "PARAKH_ROOT": str(root),
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    dvc = str(BIN / "dvc")
    _git(root, env, "git", "init", "-q")
    _git(root, env, dvc, "init", "-q")
    _git(root, env, dvc, "config", "core.analytics", "false")
    _git(root, env, "git", "add", "-A")
    _git(root, env, "git", "commit", "-q", "-m", "inputs")
    _git(root, env, dvc, "exp", "run", "-n", "first")
    first = json.loads((root / REPORTS / "leaderboard.json").read_text())
    judged = root / "data/processed/demo/judge/smoke/beta.jsonl"
    lines = judged.read_text().splitlines()
    judged.write_text("\n".join(line.replace('"score":0.', '"score":0.0') for line in lines) + "\n")
    _add_graders(root)  # the second experiment reads two graders' files from a folder
    _git(root, env, "git", "add", "-A")
    _git(root, env, dvc, "exp", "run", "-n", "second")
    second = json.loads((root / REPORTS / "leaderboard.json").read_text())
    assert first["cells"] != second["cells"]
    assert not first["agreement"] and second["agreement"][0]["inter_grader"]["graders"] == [
        "asha",
        "ravi",
    ]
    # The judge: params.yaml's at that revision, or named (reports/<dataset>/<judge>/).
    for name, recorded, judge in (("first", first, []), ("second", second, ["judge=smoke"])):
        output = tmp_path / name
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "parakh.cli",
                "reproduce",
                "--dvc-exp",
                name,
                *judge,
                "--out",
                str(output),
            ],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 0, out.stdout + out.stderr
        assert "figures identical" in out.stdout
        rebuilt = json.loads((output / "leaderboard.json").read_text(encoding="utf-8"))
        assert rebuilt["cells"] == recorded["cells"]
        assert rebuilt.get("agreement") == recorded.get("agreement")
    other_judge = subprocess.run(
        [sys.executable, "-m", "parakh.cli", "reproduce", "--dvc-exp", "first", "judge=x"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert other_judge.returncode != 0
    assert "reports/demo/x/leaderboard.runspec.json" in other_judge.stderr
    unknown = subprocess.run(
        [sys.executable, "-m", "parakh.cli", "reproduce", "--dvc-exp", "firts"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert unknown.returncode == 2
    assert "Did you mean 'first'" in unknown.stderr and "Available: first, second" in unknown.stderr
