"""What one aggregate run logs to MLflow: the sweep's parent run and a child run per model.

The parent's `inputs/` artifacts are the exact files the leaderboard was computed from, laid
out as under `paths.processed`, plus `inputs/config.json` (resolved config and model list), so
`parakh reproduce <run id>` can rebuild every number from the run alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parakh.config.loading import load_named
from parakh.config.schema import ParakhConfig
from parakh.errors import ConfigError
from parakh.hashing import sha256_path
from parakh.io import write_json
from parakh.layout import Layout
from parakh.report.files import ReportFiles
from parakh.report.inputs import AggregateInputs
from parakh.report.results import AggregateResult, output_paths
from parakh.tracking.mlflow_log import RunLog, SweepLog, model_metrics, sweep_metrics
from parakh.tracking.runspec import dvc_hash_tags

INPUTS = "inputs"
CONFIG_FILE = "config.json"
HUMAN_GRADES_FILE = "human_grades.jsonl"


def inputs_config(cfg: ParakhConfig, models: list[str]) -> dict[str, Any]:
    """The resolved config and model list that `parakh reproduce` rebuilds from."""
    return {"config": cfg.model_dump(mode="json"), "models": list(models)}


def _artifact_folder(path: Path, layout: Layout) -> str:
    """Where an input lands under `inputs/`: its folder relative to paths.processed."""
    relative = path.resolve().relative_to(layout.processed.parent.resolve())
    return f"{INPUTS}/processed/{relative.parent.as_posix()}"


def build_sweep(
    cfg: ParakhConfig,
    result: AggregateResult,
    inputs: AggregateInputs,
    layout: Layout,
    files: ReportFiles,
    *,
    commit: str,
    scratch: Path,
) -> SweepLog:
    """The parent and child runs of this aggregate; `scratch` holds the config artifact."""
    document = result.document()
    common = {
        "dataset": cfg.dataset.name,
        "judge": cfg.judge.name,
        "translator": cfg.translator.name,
        "retriever": cfg.retriever.name,
        "embedder": cfg.embedder.name,
        "git_commit": commit,
        "primary_metric": result.primary,
    }
    if result.partial is not None:  # filterable: tags.partial_run, on the parent and each model
        common["partial_run"] = result.partial.coverage.rows_text
    params = {
        "dataset": cfg.dataset.model_dump(mode="json"),
        "judge": cfg.judge.model_dump(mode="json"),
        "retriever": cfg.retriever.model_dump(mode="json"),
        "embedder": cfg.embedder.model_dump(mode="json"),
        "translator": cfg.translator.model_dump(mode="json"),
        "aggregate": cfg.aggregate.model_dump(mode="json"),
        "seed": cfg.seed,
    }
    config_path = scratch / CONFIG_FILE
    write_json(config_path, inputs_config(cfg, inputs.models))
    # Answers are inputs only where curated human grades pair with judge rows through them.
    pairs_by_answer = "human_judgments" in inputs.paths
    input_files = [
        p
        for k, p in sorted(inputs.paths.items())
        if pairs_by_answer or not k.startswith("generations")
    ]
    artifacts: list[tuple[Path, str]] = [(config_path, INPUTS)]
    for key, path in sorted(inputs.paths.items()):
        if key == "human_grades":
            artifacts.append((path, INPUTS))
        elif pairs_by_answer or not key.startswith("generations"):
            artifacts.append((path, _artifact_folder(path, layout)))
    for path in output_paths(files, cfg):
        folder = "report/plots" if path.parent == files.plots else "report"
        artifacts.append((path, folder))
    parent = RunLog(
        name=f"{cfg.dataset.name}/{cfg.judge.name}",
        tags={**common, "models": ",".join(inputs.models), **dvc_hash_tags(input_files)},
        params={**params, "models": ",".join(inputs.models)},
        metrics=sweep_metrics(document["paired"], document["agreement"]),
        artifacts=artifacts,
    )
    children = {}
    for system, (model, translator) in result.board.systems.items():
        data = {
            name: path
            for name, path in (
                ("judgments", inputs.paths.get(f"judgments.{model}")),
                ("generations", inputs.paths.get(f"generations.{model}")),
                ("questions", inputs.paths.get("questions")),
            )
            if path is not None
        }
        tags = {
            **common,
            "model": system,
            "base_model": model,
            "translator": translator or cfg.translator.name,
            **{f"data.{name}_sha256": sha256_path(p) for name, p in data.items()},
            **dvc_hash_tags(list(data.values())),
        }
        model_params: dict[str, Any] = dict(params)
        try:
            model_params["model"] = load_named("model", model)
        except ConfigError:
            model_params["model"] = f"(no conf/model/{model}.yaml)"
        children[system] = RunLog(
            name=f"{cfg.dataset.name}/{system}/{cfg.judge.name}",
            tags=tags,
            params=model_params,
            metrics=model_metrics(document["cells"], document["ranks"], system),
            artifacts=[(data[k], "samples") for k in ("judgments", "generations") if k in data],
        )
    return SweepLog(experiment=cfg.tracking.experiment, parent=parent, children=children)
