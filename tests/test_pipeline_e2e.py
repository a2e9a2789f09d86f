"""The whole pipeline through real DVC on a cut-down demo: outputs, no-op re-run, new model."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from tests.report.test_browser import FLAGS, chromium  # noqa: F401 (the fixture)
from tests.report.test_grading_browser import PROGRESS, download, grade_by_keyboard
from tests.support.cdp import Browser
from tests.support.health_report import SCORED_BY_SMOKE, assert_health_report

pytestmark = pytest.mark.slow

CUT_DOWN = 6  # questions


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout + out.stderr


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("e2e") / "project"
    root.mkdir()
    for name in ("conf", "src", "data/raw/demo"):
        shutil.copytree(
            REPO / name, root / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
        )
    for name in ("dvc.yaml", "params.yaml"):
        shutil.copy(REPO / name, root / name)
    dataset = root / "conf/dataset/demo.yaml"
    cfg = yaml.safe_load(dataset.read_text())
    cfg["limit"] = CUT_DOWN
    dataset.write_text(yaml.safe_dump(cfg))
    env = {
        **os.environ,
        "PARAKH_ROOT": str(root),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "MLFLOW_TRACKING_URI": f"sqlite:///{root / 'mlflow.db'}",
    }
    env.pop("HYDRA_FULL_ERROR", None)
    _run(["git", "init", "-q"], root, env)
    _run(
        [
            "git",
            "-c",
            "user.email=t@t",
            "-c",
            "user.name=t",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "init",
        ],
        root,
        env,
    )
    _run(["dvc", "init", "-q"], root, env)
    _run(["dvc", "config", "core.analytics", "false"], root, env)
    return root, env


def _cache_rows(root: Path) -> int:
    with sqlite3.connect(root / ".parakh/cache.sqlite") as db:
        return int(db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])


def test_dvc_repro_runs_every_stage(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    out = _run(["dvc", "repro"], root, env)
    for stage in (
        "curate@demo",
        "index@demo",
        "generate@demo-smollm2",
        "judge@demo-extractive",
        "aggregate@demo",
    ):
        assert f"Running stage '{stage}'" in out
    assert "Running stage 'translate" not in out  # direct inference: no translate stage
    board = (root / "reports/demo/smoke/leaderboard.md").read_text()
    assert "extractive" in board and "smollm2" in board and "Smoke-test judge" in board
    metrics = json.loads((root / "reports/demo/smoke/metrics.json").read_text())
    assert set(metrics) == {"extractive", "smollm2", "cost_and_latency"}
    assert set(metrics["cost_and_latency"]) == {"extractive", "smollm2"}
    assert (root / "reports/demo/smoke/plots/heatmap.png").stat().st_size > 1000
    judged = [
        json.loads(line)
        for line in (root / "data/processed/demo/judge/smoke/smollm2.jsonl")
        .read_text()
        .splitlines()
    ]
    assert len({r["question_id"] for r in judged}) == CUT_DOWN
    assert all(r["status"] in {"ok", "invalid", "error", "skipped"} for r in judged)
    assert any(r["status"] == "ok" and r["metric"] == "factual_correctness" for r in judged)


def test_mlflow_has_one_run_per_model_with_every_metric_language(
    project: tuple[Path, dict[str, str]],
) -> None:
    root, _ = project
    import mlflow

    client = mlflow.tracking.MlflowClient(f"sqlite:///{root / 'mlflow.db'}")
    runs = client.search_runs(
        [client.get_experiment_by_name("parakh").experiment_id],
        filter_string="tags.`parakh.level` = 'model'",  # child runs; the sweep is their parent
    )
    assert sorted(r.data.tags["model"] for r in runs) == ["extractive", "smollm2"]
    metrics = json.loads((root / "reports/demo/smoke/metrics.json").read_text())
    for run in runs:
        model = run.data.tags["model"]
        assert run.data.tags["dataset"] == "demo" and run.data.tags["judge"] == "smoke"
        assert len(run.data.tags["git_commit"]) >= 7
        expected = {f"{m}.{lang}": v for m, by in metrics[model].items() for lang, v in by.items()}
        assert {k: run.data.metrics[k] for k in expected} == pytest.approx(expected)


def test_second_repro_is_a_no_op_without_model_calls(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    before = _cache_rows(root)
    out = _run(["dvc", "repro"], root, env)
    assert "Running stage" not in out
    assert _cache_rows(root) == before


def test_adding_a_model_reruns_only_its_stages(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    model = yaml.safe_load((root / "conf/model/extractive.yaml").read_text())
    model.update(name="extractive1", max_sentences=1)
    (root / "conf/model/extractive1.yaml").write_text(yaml.safe_dump(model))
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["models"].append("extractive1")
    (root / "params.yaml").write_text(yaml.safe_dump(params))
    status = _run(["dvc", "status"], root, env)
    assert "generate@demo-extractive1" in status and "judge@demo-extractive1" in status
    assert "aggregate@demo" in status
    assert "generate@demo-smollm2" not in status and "judge@demo-smollm2" not in status
    out = _run(["dvc", "repro"], root, env)
    ran = {line.split("'")[1] for line in out.splitlines() if line.startswith("Running stage")}
    assert ran == {"generate@demo-extractive1", "judge@demo-extractive1", "aggregate@demo"}


def test_hydra_multirun_writes_the_same_per_model_paths(
    project: tuple[Path, dict[str, str]],
) -> None:
    """`-m model=a,b` outside DVC reuses the cache and rewrites DVC's outputs byte for byte."""
    root, env = project
    before = _cache_rows(root)
    out = _run(
        [
            sys.executable,
            "-m",
            "parakh.stages.generate",
            "-m",
            "model=extractive,smollm2",
            "retriever=faiss_small",
        ],
        root,
        env,
    )
    assert "generate (extractive): 6 answers" in out and "generate (smollm2): 6 answers" in out
    assert _cache_rows(root) == before
    status = _run(["dvc", "status"], root, env)
    assert "generate@demo-smollm2" not in status and "generate@demo-extractive:" not in status


def test_rag_health_smoke_puts_health_metrics_cost_and_latency_on_every_output(
    project: tuple[Path, dict[str, str]],
) -> None:
    """The same project judged by `rag_health_smoke` (issue #28): medical safety, red flags,
    groundedness and its heuristic, sufficiency and abstention per language with intervals, and
    cost and latency per model, in the leaderboard, `dvc metrics show` and MLflow; the answers
    are not asked again."""
    root, env = project
    before = _cache_rows(root)
    params = yaml.safe_load((root / "params.yaml").read_text())
    params.update(judge="rag_health_smoke", models=["extractive", "smollm2"])
    (root / "params.yaml").write_text(yaml.safe_dump(params))
    out = _run(["dvc", "repro"], root, env)
    assert "Running stage 'generate@" not in out
    assert _cache_rows(root) > before  # the new judge calls, and only those
    # the cut-down demo has no unanswerable question, so the judge decides sufficiency
    assert_health_report(root, env, "demo", SCORED_BY_SMOKE)


def test_a_doctors_downloaded_grades_reach_the_report_through_dvc_repro(
    project: tuple[Path, dict[str, str]],
    chromium: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """docs/grading.md's route (issue #29): `parakh grading-sheet`, every answer on the sheet
    graded by keyboard in headless Chromium (test_grading_browser reloads), the downloaded file (no
    model name in it) put in grading/demo, which the aggregate config reads and dvc.yaml lists;
    `dvc repro` reruns aggregate alone and the report gains judge-human agreement on the graded
    answers."""
    root, env = project
    judge = yaml.safe_load((root / "params.yaml").read_text())["judge"]
    sheet = ["parakh", "grading-sheet", "demo", f"judge={judge}", "--graders", "asha"]
    _run([*sheet, "--metrics", "factual_correctness,coherence"], root, env)
    (page,) = (root / "grading" / "demo").glob("*-asha.html")
    browser = Browser(chromium, tmp_path / "profile", FLAGS)
    try:
        browser.open(page)
        # the judge scored 2 questions per language: 2 x 2 models = 4 answers on the sheet
        assert browser.evaluate(PROGRESS) == "0 of 4 answers graded"
        graded = grade_by_keyboard(browser, answers=4)
        assert browser.evaluate(PROGRESS) == "4 of 4 answers graded"
        downloaded = download(browser, tmp_path / "downloads")
    finally:
        browser.close()
    text = downloaded.read_text(encoding="utf-8")
    assert len(text.splitlines()) == 8 and len(set(graded)) == 4
    assert not re.search("extractive|smollm2", text, re.IGNORECASE)  # blind until aggregate
    downloaded.rename(page.parent / downloaded.name)

    aggregate_conf = root / "conf" / "aggregate" / "default.yaml"
    conf = yaml.safe_load(aggregate_conf.read_text())
    conf["agreement"]["human_grades"] = "grading/${dataset.name}"
    aggregate_conf.write_text(yaml.safe_dump(conf, allow_unicode=True))
    pipeline = yaml.safe_load((root / "dvc.yaml").read_text())
    pipeline["stages"]["aggregate"]["do"]["deps"].append("grading/${item}")
    (root / "dvc.yaml").write_text(yaml.safe_dump(pipeline, allow_unicode=True, sort_keys=False))
    out = _run(["dvc", "repro"], root, env)
    assert "Running stage 'aggregate@demo'" in out and "Running stage 'judge@" not in out

    report = root / "reports" / "demo" / judge
    document = json.loads((report / "leaderboard.json").read_text(encoding="utf-8"))
    by_metric = {a["metric"]: a for a in document["agreement"]}
    assert by_metric["factual_correctness"]["human_grades"] == 4
    assert by_metric["coherence"]["overall"]["n_pairs"] > 0
    assert "Judge-human agreement" in (report / "report.html").read_text(encoding="utf-8")
