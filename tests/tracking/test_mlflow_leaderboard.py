"""The aggregate stage logs to a real MLflow server: every figure of every leaderboard file is
an MLflow metric with the same value; runs carry tags, params and artifacts; re-runs are
idempotent."""

from __future__ import annotations

import csv
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from tests.tracking.conftest import experiment_of, run_parakh

from parakh.report.tables import format_mean
from parakh.tracking.mlflow_log import CELL_FIGURES, cell_metric_name

pytestmark = [pytest.mark.slow, pytest.mark.server]
REPORTS = Path("reports/demo/smoke")  # reports/<dataset>/<judge>/


def _sweep(uri: str, root: Path) -> tuple[Any, dict[str, Any], list[Any]]:
    from mlflow.tracking import MlflowClient

    client = MlflowClient(uri)
    experiment = client.get_experiment_by_name(experiment_of(root))
    runs = client.search_runs([experiment.experiment_id], max_results=1000)
    parents = [r for r in runs if r.data.tags.get("parakh.level") == "sweep"]
    assert len(parents) == 1
    children = {r.data.tags["model"]: r for r in runs if r.data.tags.get("parakh.level") == "model"}
    return parents[0], children, runs


def test_every_leaderboard_figure_is_an_mlflow_metric(logged_project: Path, mlflow_server: str):
    parent, children, _ = _sweep(mlflow_server, logged_project)
    assert set(children) == {"alpha", "beta", "gamma"}
    checked = 0
    expected_names: dict[str, set[str]] = {m: set() for m in children}
    # leaderboard.csv: every figure of every cell
    with (logged_project / REPORTS / "leaderboard.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            metrics = children[row["model"]].data.metrics
            for figure in CELL_FIGURES:
                if row[figure] == "":
                    continue
                name = cell_metric_name(row["metric"], row["dimension"], row["value"], figure)
                assert metrics[name] == float(row[figure]), name
                expected_names[row["model"]].add(name)
                checked += 1
    # leaderboard.json: cells, rank intervals (model runs), paired tests (sweep run)
    document = json.loads((logged_project / REPORTS / "leaderboard.json").read_text())
    for cell in document["cells"]:
        metrics = children[cell["model"]].data.metrics
        for figure in CELL_FIGURES:
            if cell[figure] is not None:
                name = cell_metric_name(cell["metric"], cell["dimension"], cell["value"], figure)
                assert metrics[name] == cell[figure]
                checked += 1
    for rank in document["ranks"]:
        metrics = children[rank["model"]].data.metrics
        base = f"rank.{rank['metric']}"
        assert metrics[base] == rank["rank"]
        assert (metrics[f"{base}.low"], metrics[f"{base}.high"]) == (
            rank["rank_low"],
            rank["rank_high"],
        )
        expected_names[rank["model"]] |= {base, f"{base}.low", f"{base}.high"}
        checked += 3
    for pair in document["paired"]:
        base = f"paired.{pair['metric']}.{pair['model_a']} vs {pair['model_b']}"
        for figure in ("n", "difference", "ci_low", "ci_high", "p_value", "p_holm"):
            assert parent.data.metrics[f"{base}.{figure}"] == pair[figure]
            checked += 1
    # metrics.json (DVC metrics): model -> metric -> language -> mean
    dvc_metrics = json.loads((logged_project / REPORTS / "metrics.json").read_text())
    for model, by_metric in dvc_metrics.items():
        for metric, by_language in by_metric.items():
            for language, value in by_language.items():
                assert children[model].data.metrics[f"{metric}.{language}"] == value
                checked += 1
    # leaderboard.md: the overall table at display precision
    checked += _walk_markdown(logged_project / REPORTS / "leaderboard.md", children)
    assert checked > 2000
    # nothing in MLflow that no leaderboard file holds
    for model, run in children.items():
        assert set(run.data.metrics) == expected_names[model]
    # the naming convention, pinned
    alpha = children["alpha"].data.metrics
    for name in ("weighted.all", "chrf.hi", "chrf.all.ci_low", "token_f1.domain.cataract.n"):
        assert name in alpha
    assert "factual_correctness.category.kb-update.invalid" in alpha


def _walk_markdown(path: Path, children: dict[str, Any]) -> int:
    lines = path.read_text(encoding="utf-8").split("## Overall")[1].strip().splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    checked = 0
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        row = dict(zip(header, cells, strict=True))
        metrics = children[row["model"]].data.metrics
        for metric in header[3:]:
            match = re.match(r"([\d.]+)(?: \(([\d.]+)%\))? \[([\d.]+), ([\d.]+)\]", row[metric])
            assert match, row[metric]
            mean_text, percent_text, low_text, high_text = match.groups()
            percent = metrics[cell_metric_name(metric, "all", "all", "percent")]
            mean = metrics[f"{metric}.all"]
            scale_max = 100.0 * mean / percent if percent else 1.0
            if percent_text is not None:
                assert percent_text == f"{percent:.1f}"
                checked += 1
            for text, name in zip(
                (mean_text, low_text, high_text), ("", ".ci_low", ".ci_high"), strict=True
            ):
                assert text == format_mean(metrics[f"{metric}.all{name}"], scale_max)
                checked += 1
        assert row["rank interval"] == (
            f"{int(metrics['rank.weighted.low'])}–{int(metrics['rank.weighted.high'])}"
        )
    return checked


def test_runs_carry_tags_params_and_artifacts(logged_project: Path, mlflow_server: str) -> None:
    from mlflow.artifacts import download_artifacts
    from mlflow.tracking import MlflowClient

    parent, children, _ = _sweep(mlflow_server, logged_project)
    judged = logged_project / "data/processed/demo/judge/smoke/alpha.jsonl"
    md5 = hashlib.md5(judged.read_bytes()).hexdigest()
    tags = parent.data.tags
    assert (tags["dataset"], tags["judge"], tags["translator"], tags["retriever"]) == (
        "demo",
        "smoke",
        "none",
        "faiss_small",
    )
    assert tags["models"] == "alpha,beta,gamma" and tags["parakh.complete"] == "true"
    assert tags["git_commit"] and tags["dvc.md5.data/processed/demo/judge/smoke/alpha.jsonl"] == md5
    child = children["alpha"]
    assert child.data.tags["mlflow.parentRunId"] == parent.info.run_id
    assert child.data.tags["dvc.md5.data/processed/demo/judge/smoke/alpha.jsonl"] == md5
    assert (
        child.data.tags["data.judgments_sha256"] == hashlib.sha256(judged.read_bytes()).hexdigest()
    )
    for key in ("dataset", "model", "judge", "translator", "retriever", "embedder", "git_commit"):
        assert child.data.tags[key]
    assert child.data.params["aggregate.weights.factual_correctness"] == "0.4"
    assert child.data.params["aggregate.statistics.bootstrap_resamples"] == "1000"
    client = MlflowClient(mlflow_server)
    listed = {a.path for a in client.list_artifacts(parent.info.run_id, "report")}
    assert {"report/report.html", "report/answers.html", "report/leaderboard.json"} <= listed
    inputs = {a.path for a in client.list_artifacts(parent.info.run_id, "inputs")}
    assert "inputs/config.json" in inputs
    html = download_artifacts(
        run_id=parent.info.run_id, artifact_path="report/report.html", tracking_uri=mlflow_server
    )
    assert Path(html).read_bytes() == (logged_project / REPORTS / "report.html").read_bytes()
    samples = {a.path for a in client.list_artifacts(child.info.run_id, "samples")}
    assert samples == {"samples/alpha.jsonl"} or len(samples) == 2


def test_rerun_on_unchanged_inputs_logs_nothing(logged_project: Path, mlflow_server: str) -> None:
    _, _, before = _sweep(mlflow_server, logged_project)
    out = run_parakh(
        ["parakh.stages.aggregate", f"tracking.experiment={experiment_of(logged_project)}"],
        logged_project,
        mlflow_server,
    )
    assert "already logged" in out.stdout
    _, _, after = _sweep(mlflow_server, logged_project)
    assert sorted(r.info.run_id for r in after) == sorted(r.info.run_id for r in before)
