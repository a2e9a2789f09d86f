"""The aggregate stage logs to a real MLflow server: every figure of every leaderboard file is
in MLflow with the same value (a language run's metric, a model run's metric or table, the
sweep run's metric); `tags.language = 'hi'` ordered by a metric is Hindi's leaderboard; runs
carry tags, params, datasets and artifacts; re-runs are idempotent."""

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
from parakh.tracking.metric_names import CELL_FIGURES, RUN_FIGURES, cell_metric_name
from parakh.tracking.samples import CELLS_TABLE, RANKS_TABLE, SAMPLE_COLUMNS, SAMPLES_TABLE
from parakh.tracking.sweep import SAMPLES_MANIFEST

pytestmark = [pytest.mark.slow, pytest.mark.server]
REPORTS = Path("reports/demo/smoke")  # reports/<dataset>/<judge>/
LANGUAGES = ["all", "en", "hi", "ta"]


def _sweep(uri: str, root: Path) -> tuple[Any, dict[str, Any], list[Any]]:
    from mlflow.tracking import MlflowClient

    client = MlflowClient(uri)
    experiment = client.get_experiment_by_name(experiment_of(root))
    found = client.search_runs([experiment.experiment_id], max_results=1000)
    runs = [r for r in found if "parakh.content_store" not in r.data.tags]  # the sweep's runs
    parents = [r for r in runs if r.data.tags.get("parakh.level") == "sweep"]
    assert len(parents) == 1
    children = {r.data.tags["model"]: r for r in runs if r.data.tags.get("parakh.level") == "model"}
    return parents[0], children, runs


def _language_runs(runs: list[Any]) -> dict[tuple[str, str], Any]:
    """(model, language) -> its run."""
    return {
        (r.data.tags["model"], r.data.tags["language"]): r
        for r in runs
        if r.data.tags.get("parakh.level") == "language"
    }


def _table(uri: str, run_id: str, name: str) -> list[dict[str, Any]]:
    from mlflow.artifacts import download_artifacts

    table = json.loads(
        Path(download_artifacts(run_id=run_id, artifact_path=name, tracking_uri=uri)).read_text()
    )
    return [dict(zip(table["columns"], row, strict=True)) for row in table["data"]]


def _table_figures(uri: str, child: Any) -> dict[str, float]:
    """Every figure of a model run's tables, by `cell_metric_name` (`rank.<m>` for ranks)."""
    out: dict[str, float] = {}
    for cell in _table(uri, child.info.run_id, CELLS_TABLE):
        for figure in CELL_FIGURES:
            if cell[figure] is not None:
                name = cell_metric_name(cell["metric"], cell["dimension"], cell["value"], figure)
                out[name] = float(cell[figure])
    for rank in _table(uri, child.info.run_id, RANKS_TABLE):
        base = f"rank.{rank['metric']}"
        out |= {base: rank["rank"], f"{base}.low": rank["rank_low"]}
        out[f"{base}.high"] = rank["rank_high"]
    return out


def test_every_leaderboard_figure_is_in_mlflow(logged_project: Path, mlflow_server: str) -> None:
    parent, children, runs = _sweep(mlflow_server, logged_project)
    assert set(children) == {"alpha", "beta", "gamma"}
    language_runs = _language_runs(runs)
    assert set(language_runs) == {(m, lang) for m in children for lang in LANGUAGES}
    tables = {m: _table_figures(mlflow_server, run) for m, run in children.items()}
    checked = 0
    expected_names: dict[str, set[str]] = {m: set() for m in children}
    expected_plain: dict[tuple[str, str], set[str]] = {k: set() for k in language_runs}
    # leaderboard.csv: every figure of every cell, in the model run's cells table
    with (logged_project / REPORTS / "leaderboard.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            for figure in CELL_FIGURES:
                if row[figure] == "":
                    continue
                name = cell_metric_name(row["metric"], row["dimension"], row["value"], figure)
                assert tables[row["model"]][name] == float(row[figure]), name
                expected_names[row["model"]].add(name)
                checked += 1
    # leaderboard.json: cells (tables; by language and overall, the language runs too), rank
    # intervals (tables; the primary metric's on the `all` run), paired tests (sweep run)
    document = json.loads((logged_project / REPORTS / "leaderboard.json").read_text())
    for cell in document["cells"]:
        for figure in CELL_FIGURES:
            if cell[figure] is not None:
                name = cell_metric_name(cell["metric"], cell["dimension"], cell["value"], figure)
                assert tables[cell["model"]][name] == cell[figure]
                checked += 1
        if cell["dimension"] in ("all", "language"):
            key = (cell["model"], cell["value"])
            metrics = language_runs[key].data.metrics
            for figure in RUN_FIGURES:
                name = cell["metric"] if figure == "mean" else f"{cell['metric']}_{figure}"
                if cell[figure] is not None:
                    assert metrics[name] == cell[figure], (key, name)
                    expected_plain[key].add(name)
                    checked += 1
    for rank in document["ranks"]:
        figures = tables[rank["model"]]
        base = f"rank.{rank['metric']}"
        assert figures[base] == rank["rank"]
        assert (figures[f"{base}.low"], figures[f"{base}.high"]) == (
            rank["rank_low"],
            rank["rank_high"],
        )
        expected_names[rank["model"]] |= {base, f"{base}.low", f"{base}.high"}
        checked += 3
        if rank["metric"] == document["primary_metric"]:
            key = (rank["model"], "all")
            metrics = language_runs[key].data.metrics
            assert (metrics["rank"], metrics["rank_low"], metrics["rank_high"]) == (
                rank["rank"],
                rank["rank_low"],
                rank["rank_high"],
            )
            expected_plain[key] |= {"rank", "rank_low", "rank_high"}
            checked += 3
    for pair in document["paired"]:
        base = f"paired.{pair['metric']}.{pair['model_a']} vs {pair['model_b']}"
        for figure in ("n", "difference", "ci_low", "ci_high", "p_value", "p_holm"):
            assert parent.data.metrics[f"{base}.{figure}"] == pair[figure]
            checked += 1
    # metrics.json (DVC metrics): model -> metric -> language -> mean, the model run's metrics
    # and cost_and_latency -> model -> figure, under the same names
    dvc_metrics = json.loads((logged_project / REPORTS / "metrics.json").read_text())
    costs = dvc_metrics.pop("cost_and_latency")
    for model, by_metric in dvc_metrics.items():
        names = set()
        for metric, by_language in by_metric.items():
            for language, value in by_language.items():
                assert children[model].data.metrics[f"{metric}.{language}"] == value
                names.add(f"{metric}.{language}")
                checked += 1
        for name, value in costs[model].items():
            assert children[model].data.metrics[name] == value
            names.add(name)
        assert set(children[model].data.metrics) == names  # nothing else on a model run
    # leaderboard.md: the overall table at display precision
    checked += _walk_markdown(logged_project / REPORTS / "leaderboard.md", tables)
    assert checked > 2000
    # nothing in MLflow that no leaderboard file holds
    for model in children:
        assert set(tables[model]) == expected_names[model]
    for key, run in language_runs.items():
        assert set(run.data.metrics) == expected_plain[key], key
        assert len(run.data.metrics) <= 50
    # the naming convention, pinned
    alpha = tables["alpha"]
    for name in ("weighted.all", "chrf.hi", "chrf.all.ci_low", "token_f1.domain.cataract.n"):
        assert name in alpha
    assert "factual_correctness.category.kb-update.invalid" in alpha
    hindi = language_runs[("alpha", "hi")].data.metrics
    assert {"factual_correctness", "factual_correctness_ci_low", "chrf_n"} <= set(hindi)
    assert {"weighted.all", "chrf.hi"} <= set(children["alpha"].data.metrics)


def test_a_language_filter_ordered_by_a_metric_is_that_languages_leaderboard(
    logged_project: Path, mlflow_server: str
) -> None:
    """The acceptance query: one run per model, plain metric names, in leaderboard order; each
    with the dataset (digest, language counts) and its judge rows as a table; real times."""
    from mlflow.tracking import MlflowClient

    client = MlflowClient(mlflow_server)
    experiment = client.get_experiment_by_name(experiment_of(logged_project))
    runs = client.search_runs(
        [experiment.experiment_id],
        filter_string="tags.language = 'hi'",
        order_by=["metrics.factual_correctness DESC"],
    )
    assert sorted(r.data.tags["model"] for r in runs) == ["alpha", "beta", "gamma"]
    scores = [r.data.metrics["factual_correctness"] for r in runs]
    assert scores == sorted(scores, reverse=True)
    document = json.loads((logged_project / REPORTS / "leaderboard.json").read_text())
    cells = {
        c["model"]: c["mean"]
        for c in document["cells"]
        if (c["metric"], c["dimension"], c["value"]) == ("factual_correctness", "language", "hi")
    }
    assert scores == sorted(cells.values(), reverse=True)
    questions = logged_project / "data/processed/demo/curate/questions.jsonl"
    digest = hashlib.sha256(questions.read_bytes()).hexdigest()
    for run in runs:
        assert all("." not in name for name in run.data.metrics), run.data.metrics
        (dataset,) = [d.dataset for d in run.inputs.dataset_inputs]
        assert (dataset.name, dataset.digest) == ("demo", digest[:32])
        assert json.loads(dataset.profile)["languages"] == {"en": 8, "hi": 8, "ta": 8}
        rows = _table(mlflow_server, run.info.run_id, SAMPLES_TABLE)
        assert rows and {r["language"] for r in rows} == {"hi"}
        assert set(rows[0]) == set(SAMPLE_COLUMNS)
        assert len(rows) == 8 * 4  # 8 Hindi questions x 4 metrics
        for name in run.data.metrics:
            (point,) = client.get_metric_history(run.info.run_id, name)
            assert point.timestamp >= run.info.start_time > 0, name
    answer = next(r for r in rows if r["metric"] == "token_f1" and r["status"] == "ok")
    assert answer["answer"].startswith(f"{runs[-1].data.tags['model']} answers q")
    assert answer["question"].startswith("Question") and answer["reference"]


def test_no_metric_of_any_run_has_timestamp_zero(logged_project: Path, mlflow_server: str):
    from mlflow.tracking import MlflowClient

    client = MlflowClient(mlflow_server)
    parent, children, runs = _sweep(mlflow_server, logged_project)
    for run in [parent, children["beta"]]:
        for name in list(run.data.metrics)[:40]:
            assert all(p.timestamp > 0 for p in client.get_metric_history(run.info.run_id, name))
    assert all(r.inputs.dataset_inputs for r in runs), "every run has its dataset input"


def _walk_markdown(path: Path, children: dict[str, dict[str, float]]) -> int:
    lines = path.read_text(encoding="utf-8").split("## Overall")[1].strip().splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    checked = 0
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        row = dict(zip(header, cells, strict=True))
        metrics = children[row["model"]]
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

    parent, children, runs = _sweep(mlflow_server, logged_project)
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
    assert child.data.params["params_from"] == "aggregate config"  # no stage wrote a run spec
    client = MlflowClient(mlflow_server)
    listed = {a.path for a in client.list_artifacts(parent.info.run_id, "report")}
    assert {"report/report.html", "report/answers.html", "report/leaderboard.json"} <= listed
    inputs = {a.path for a in client.list_artifacts(parent.info.run_id, "inputs")}
    assert inputs == {"inputs/config.json", "inputs/manifest.json"}  # the files: content store
    html = download_artifacts(
        run_id=parent.info.run_id, artifact_path="report/report.html", tracking_uri=mlflow_server
    )
    assert Path(html).read_bytes() == (logged_project / REPORTS / "report.html").read_bytes()
    tables = {a.path for a in client.list_artifacts(child.info.run_id, "leaderboard")}
    assert tables == {CELLS_TABLE, RANKS_TABLE}
    logged = json.loads(child.data.tags["mlflow.loggedArtifacts"])  # the UI's table list
    assert {t["path"] for t in logged} == {CELLS_TABLE, RANKS_TABLE}
    hindi = _language_runs(runs)[("alpha", "hi")]
    assert hindi.data.tags["mlflow.parentRunId"] == child.info.run_id
    assert hindi.info.run_name == "alpha · hi · demo · smoke"
    for key in ("dataset", "model", "judge", "language", "git_commit"):
        assert hindi.data.tags[key] == child.data.tags.get(key, "hi")
    assert hindi.data.params == child.data.params
    assert [a.path for a in client.list_artifacts(hindi.info.run_id)] == [SAMPLES_TABLE]


def test_judge_rows_and_answers_are_referenced_in_the_content_store(
    logged_project: Path, mlflow_server: str
) -> None:
    """A model run logs where the content store holds its judge rows and answers, not copies;
    the store holds each file once, by sha256."""
    from mlflow.artifacts import download_artifacts
    from mlflow.tracking import MlflowClient

    client = MlflowClient(mlflow_server)
    _, children, _ = _sweep(mlflow_server, logged_project)
    child = children["alpha"]
    judged = logged_project / "data/processed/demo/judge/smoke/alpha.jsonl"
    samples = {a.path for a in client.list_artifacts(child.info.run_id, "samples")}
    assert samples == {SAMPLES_MANIFEST}
    manifest = json.loads(
        Path(
            download_artifacts(
                run_id=child.info.run_id, artifact_path=SAMPLES_MANIFEST, tracking_uri=mlflow_server
            )
        ).read_text()
    )
    judgments = {e["name"]: e for e in manifest["files"]}["judgments"]
    sha = child.data.tags["data.judgments_sha256"]
    assert judgments["sha256"] == sha
    assert judgments["artifact"] == f"sha256/{sha[:2]}/{sha}/alpha.jsonl"
    store = client.get_run(judgments["run_id"])
    assert store.data.tags["parakh.content_store"] == "true"
    assert [
        a.path for a in client.list_artifacts(store.info.run_id, f"sha256/{sha[:2]}/{sha}")
    ] == [judgments["artifact"]]
    stored = download_artifacts(
        run_id=store.info.run_id, artifact_path=judgments["artifact"], tracking_uri=mlflow_server
    )
    assert Path(stored).read_bytes() == judged.read_bytes()


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
