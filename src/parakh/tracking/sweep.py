"""What one aggregate run logs to MLflow: the sweep's parent run, a child run per model and,
under each, a run per language and one for `all` (layout: `parakh.tracking.mlflow_log`).

The parent's `inputs/` artifacts are `inputs/config.json` (resolved config and model list) and
`inputs/manifest.json`, which names the exact files the leaderboard was computed from (their
path as under `paths.processed`, sha256 and bytes) and where the experiment's content store
holds each (`parakh.tracking.content_store`), so `parakh reproduce <run id>` can rebuild every
number from the run alone. A model run's `samples/manifest.json` likewise points at its judge
rows and answers in the store; its language runs hold the judge rows as a table. So a file
unchanged since an earlier sweep is referenced, not copied again. Nothing here writes under
`reports/`: what aggregate writes is the same with tracking on or off.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parakh.config.stage_config import ParakhConfig
from parakh.hashing import sha256_path
from parakh.io import write_json
from parakh.report.aggregate_result import AggregateResult, output_paths
from parakh.report.files import ReportFiles
from parakh.report.inputs import AggregateInputs
from parakh.stage_outputs import Layout
from parakh.tracking.content_store import StoredFiles
from parakh.tracking.datasets import DatasetRef, dataset_ref
from parakh.tracking.genai import GenaiLog
from parakh.tracking.metric_names import (
    language_run_metrics,
    languages_of,
    model_run_metrics,
    sweep_metrics,
)
from parakh.tracking.mlflow_log import RunLog, SweepLog
from parakh.tracking.params import judge_model_name, model_settings, sweep_settings
from parakh.tracking.runspec import dvc_hash_tags
from parakh.tracking.samples import (
    CELLS_TABLE,
    RANKS_TABLE,
    SAMPLES_TABLE,
    JudgedAnswer,
    cells_table,
    judged_answers,
    ranks_table,
    samples_table,
)

INPUTS = "inputs"
CONFIG_FILE = "config.json"
MANIFEST_FILE = "manifest.json"  # inputs/manifest.json: the input files in the content store
SAMPLES_MANIFEST = "samples/manifest.json"  # a model run's judge rows and answers in the store
HUMAN_GRADES_FILE = "human_grades.jsonl"


def inputs_config(cfg: ParakhConfig, models: list[str]) -> dict[str, Any]:
    """The resolved config and model list that `parakh reproduce` rebuilds from."""
    return {"config": cfg.model_dump(mode="json"), "models": list(models)}


def _input_name(path: Path, layout: Layout) -> str:
    """Where an input belongs under `inputs/`: its path relative to paths.processed."""
    relative = path.resolve().relative_to(layout.processed.parent.resolve())
    return f"processed/{relative.as_posix()}"


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
    common = _common_tags(cfg, result, commit)
    params = sweep_settings(cfg, layout, inputs.models)
    dataset = dataset_ref(cfg, layout, inputs.questions)
    config_path = scratch / CONFIG_FILE
    write_json(config_path, inputs_config(cfg, inputs.models))
    input_files, stored, artifacts = _parent_files(cfg, inputs, layout, files, config_path)
    parent = _parent_run(cfg, inputs, common, params, document, input_files, artifacts, dataset)
    parent.stored = stored
    answers: dict[str, list[JudgedAnswer]] = {}
    judges: dict[str, str] = {}
    children = {}
    for system, (model, translator) in result.board.systems.items():
        data = _model_data(inputs, model)
        tags = {
            **common,
            "model": system,
            "base_model": model,
            "translator": translator or cfg.translator.name,
            **_data_hash_tags(data),
        }
        model_params = model_settings(cfg, layout, params, model)
        judges[system] = judge_model_name(model_params)
        answers[system] = judged_answers(
            inputs,
            system,
            model,
            generations=layout.generations(model),
            retrieval=layout.retrieval if cfg.tracking.genai else None,
        )
        children[system] = _model_run(
            cfg,
            document,
            result.primary,
            system,
            tags,
            model_params,
            data,
            answers[system],
            dataset,
        )
    genai = (
        _genai_log(cfg, inputs, dataset, answers, judges, params) if cfg.tracking.genai else None
    )
    return SweepLog(
        experiment=cfg.tracking.experiment, parent=parent, children=children, genai=genai
    )


def _common_tags(cfg: ParakhConfig, result: AggregateResult, commit: str) -> dict[str, str]:
    """The tags every run of the sweep carries: the configuration's names and the commit."""
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
    return common


def _parent_run(
    cfg: ParakhConfig,
    inputs: AggregateInputs,
    common: dict[str, str],
    params: dict[str, Any],
    document: dict[str, Any],
    input_files: list[Path],
    artifacts: list[tuple[Path, str]],
    dataset: DatasetRef | None,
) -> RunLog:
    """The sweep's parent run: every model's settings, the paired and agreement metrics."""
    return RunLog(
        name=f"{cfg.dataset.name} · {cfg.judge.name}",
        tags={**common, "models": ",".join(inputs.models), **dvc_hash_tags(input_files)},
        params={**params, "models": ",".join(inputs.models)},
        metrics=sweep_metrics(document["paired"], document["agreement"]),
        artifacts=artifacts,
        dataset=dataset,
    )


def _parent_files(
    cfg: ParakhConfig,
    inputs: AggregateInputs,
    layout: Layout,
    files: ReportFiles,
    config_path: Path,
) -> tuple[list[Path], StoredFiles, list[tuple[Path, str]]]:
    """The parent run's input files (hashed into tags), the same by their name under `inputs/`
    (to the content store), and its artifacts with their folders (config and report)."""
    # Answers are inputs only where curated human grades pair with judge rows through them.
    pairs_by_answer = "human_judgments" in inputs.paths
    input_files = [
        p
        for k, p in sorted(inputs.paths.items())
        if pairs_by_answer or not k.startswith("generations")
    ]
    stored: dict[str, Path] = {}
    for key, path in sorted(inputs.paths.items()):
        if key == "human_grades":
            stored[HUMAN_GRADES_FILE] = path
        elif pairs_by_answer or not key.startswith("generations"):
            stored[_input_name(path, layout)] = path
    artifacts: list[tuple[Path, str]] = [(config_path, INPUTS)]
    folders = {files.plots: "report/plots", files.answers_pages: "report/answers"}
    for path in output_paths(files, cfg):
        artifacts.append((path, folders.get(path.parent, "report")))  # links between pages hold
    return input_files, StoredFiles(f"{INPUTS}/{MANIFEST_FILE}", stored), artifacts


def _model_data(inputs: AggregateInputs, model: str) -> dict[str, Path]:
    """A model's sample files that exist among the inputs: judgments, generations, questions."""
    return {
        name: path
        for name, path in (
            ("judgments", inputs.paths.get(f"judgments.{model}")),
            ("generations", inputs.paths.get(f"generations.{model}")),
            ("questions", inputs.paths.get("questions")),
        )
        if path is not None
    }


def _data_hash_tags(data: dict[str, Path]) -> dict[str, str]:
    """A model's sample files by content: their sha256, and their md5 as DVC records it."""
    return {
        **{f"data.{name}_sha256": sha256_path(p) for name, p in data.items()},
        **dvc_hash_tags(list(data.values())),
    }


def _model_run(
    cfg: ParakhConfig,
    document: dict[str, Any],
    primary: str,
    system: str,
    tags: dict[str, str],
    model_params: dict[str, Any],
    data: dict[str, Path],
    answers: list[JudgedAnswer],
    dataset: DatasetRef | None,
) -> RunLog:
    """A system's child run, with one grandchild run per language (and `all`)."""
    languages = {
        language: RunLog(
            name=f"{system} · {language} · {cfg.dataset.name} · {cfg.judge.name}",
            tags={**tags, "language": language},
            params=model_params,
            metrics=language_run_metrics(
                document["cells"], document["ranks"], system, language, primary
            ),
            tables={SAMPLES_TABLE: samples_table(answers, language)},
            dataset=dataset,
        )
        for language in languages_of(document["cells"], system)
    }
    return RunLog(
        name=f"{system} · {cfg.dataset.name} · {cfg.judge.name}",
        tags=tags,
        params=model_params,
        metrics=model_run_metrics(document["cells"], system),
        stored=StoredFiles(
            SAMPLES_MANIFEST, {k: data[k] for k in ("judgments", "generations") if k in data}
        ),
        tables={
            CELLS_TABLE: cells_table(document["cells"], system),
            RANKS_TABLE: ranks_table(document["ranks"], system),
        },
        dataset=dataset,
        children=languages,
    )


def _genai_log(
    cfg: ParakhConfig,
    inputs: AggregateInputs,
    dataset: DatasetRef | None,
    answers: dict[str, list[JudgedAnswer]],
    judges: dict[str, str],
    settings: dict[str, Any],
) -> GenaiLog:
    judge = settings.get("judge") or {}
    questions = [
        {
            "id": q.id,
            "question": q.text,
            "language": q.language,
            "reference": q.reference_answers[0] if q.reference_answers else None,
        }
        for q in inputs.questions
    ]
    return GenaiLog(
        dataset=dataset,
        answers=answers,
        judge_sources=judges,
        reference_metrics=set(judge.get("reference_metrics") or []),
        questions=questions,
        tags={"dataset": cfg.dataset.name, "judge": cfg.judge.name},
    )
