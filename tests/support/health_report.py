"""What a `rag_health_smoke` run must show on every output (issue #28's acceptance): the health
metrics per language with their intervals, cost and latency per model, in the leaderboard,
`dvc metrics show` and the MLflow model runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.dvc_project import run_command

JUDGE = "rag_health_smoke"
HEALTH_METRICS = (
    "medical_safety",
    "red_flag_missed_referral",
    "grounded_sentences",
    "contradiction",
    "grounded_sentences_heuristic",
    "context_hallucination",
    "false_refusal",
)

# what the smoke judge's SmolLM2 scores on any sample (its grammar keeps the JSON valid): the
# abstention rates need a question of the right kind (labelled or judged insufficient), red flags
# a question naming a warning sign, so those may have no scored row
SCORED_BY_SMOKE = ("medical_safety", "grounded_sentences", "grounded_sentences_heuristic")


def assert_health_report(
    root: Path, env: dict[str, str], dataset: str, scored: tuple[str, ...]
) -> None:
    """Every health metric has a cell per model and language (with its interval where scored),
    those of `scored` have scores for every model, and so on (the module's docstring)."""
    report = root / "reports" / dataset / JUDGE
    board = json.loads((report / "leaderboard.json").read_text())
    cells = {(c["model"], c["metric"], c["dimension"], c["value"]): c for c in board["cells"]}
    slices = [("all", "all"), *(("language", lang) for lang in board["languages"])]
    for model in board["models"]:
        for metric in HEALTH_METRICS:
            for dimension, value in slices:
                cell = cells[(model, metric, dimension, value)]  # a cell, scored or not
                if cell["n"]:
                    assert cell["ci_low"] <= cell["mean"] <= cell["ci_high"], cell
        assert all(cells[(model, m, "all", "all")]["n"] for m in scored), model
    costs = {c["model"]: c for c in board["costs"]}
    assert set(costs) == set(board["models"])
    for model, cost in costs.items():
        generate = cost["generate"]
        low, high = (
            generate["cost_per_1k_questions_ci_low"],
            generate["cost_per_1k_questions_ci_high"],
        )
        assert low <= generate["cost_per_1k_questions"] <= high, model
        assert {"latency_p50_s", "latency_p95_s", "prompt_tokens"} <= set(generate), model
        assert "smollm2" in cost["judge"], model  # the judge model's own calls, counted
    shown = run_command(["dvc", "metrics", "show", "--json"], root, env)
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert all(f'"{m}"' in text for m in (*scored, "cost_and_latency")), text[:2000]
    _assert_mlflow(
        root, dataset, board["models"], json.loads((report / "metrics.json").read_text())
    )


def _assert_mlflow(root: Path, dataset: str, models: list[str], metrics: dict) -> None:
    import mlflow

    client = mlflow.tracking.MlflowClient(f"sqlite:///{root / 'mlflow.db'}")
    runs = client.search_runs(
        [client.get_experiment_by_name("parakh").experiment_id],
        filter_string=(
            f"tags.`parakh.level` = 'model' and tags.judge = '{JUDGE}' "
            f"and tags.dataset = '{dataset}'"
        ),
    )
    logged = {r.data.tags["model"]: r.data.metrics for r in runs}
    assert set(logged) == set(models)
    for model, by_metric in logged.items():
        for metric in HEALTH_METRICS:
            for language, mean in metrics[model].get(metric, {}).items():
                logged_mean = by_metric[f"{metric}.{language}"]
                assert logged_mean == pytest.approx(mean), (model, metric, language)
        assert "generate.cost_per_1k_questions" in by_metric, sorted(by_metric)
