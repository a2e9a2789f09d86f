"""What one aggregate run logs to MLflow: the sweep's parent run, a child run per model and,
under each, a run per language and one for `all` (docs/mlflow-dvc.md).

The parent's `inputs/config.json` and `inputs/manifest.json` (the input files, by where the
content store holds them) are what `parakh reproduce <run id>` rebuilds every number from.
Nothing here writes under `reports/`: aggregate writes the same with tracking on or off.
"""

from __future__ import annotations

from pathlib import Path

from parakh.config.stage_config import ParakhConfig
from parakh.hashing import sha256_path
from parakh.io import write_json
from parakh.report.aggregate_result import AggregateResult, output_paths
from parakh.report.files import ReportFiles
from parakh.report.gates import gate_metrics
from parakh.report.grades_file import kept_with_grades
from parakh.report.inputs import AggregateInputs
from parakh.stage_outputs import Layout
from parakh.tracking.content_store import StoredFiles
from parakh.tracking.datasets import dataset_ref
from parakh.tracking.genai import GenaiLog
from parakh.tracking.metric_names import Figures, figures_of, languages_of
from parakh.tracking.mlflow_log import RunLog, SweepLog
from parakh.tracking.params import judge_model_name, model_settings, sweep_settings
from parakh.tracking.runspec import dvc_hash_tags
from parakh.tracking.samples import (
    SAMPLES_TABLE,
    JudgedAnswer,
    judged_answers,
    leaderboard_tables,
    samples_table,
)

INPUTS = "inputs"
CONFIG_FILE = "config.json"
MANIFEST_FILE = "manifest.json"  # inputs/manifest.json: the input files in the content store
SAMPLES_MANIFEST = "samples/manifest.json"  # a model run's judge rows and answers in the store
HUMAN_GRADES_FILE = "human_grades.jsonl"  # a grades file
HUMAN_GRADES_FOLDER = "human_grades"  # a grades folder's grades files and answer keys


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
    figures = figures_of(document, list(result.board.systems))  # what each run holds
    common = _common_tags(cfg, result, commit)
    params = sweep_settings(cfg, layout, inputs.models)
    dataset = dataset_ref(cfg, layout, inputs.questions)
    config_path = scratch / CONFIG_FILE  # what `parakh reproduce` rebuilds from
    write_json(config_path, {"config": cfg.model_dump(mode="json"), "models": inputs.models})
    input_files, stored, artifacts = _parent_files(cfg, inputs, layout, files, config_path)
    models = ",".join(inputs.models)
    parent = RunLog(
        name=f"{cfg.dataset.name} · {cfg.judge.name}",
        tags={**common, "models": models, **dvc_hash_tags(input_files)},
        params={**params, "models": models},
        metrics={**figures["sweep"], **gate_metrics(result.gates)},
        artifacts=artifacts,
        dataset=dataset,
        stored=stored,
    )
    answers: dict[str, list[JudgedAnswer]] = {}
    children = {}
    for system, (model, translator) in result.board.systems.items():
        keys = {"judgments": f"judgments.{model}", "generations": f"generations.{model}"}
        keys["questions"] = "questions"  # the model's sample files among the inputs
        data = {name: inputs.paths[key] for name, key in keys.items() if key in inputs.paths}
        answers[system] = judged_answers(
            inputs,
            system,
            model,
            generations=layout.generations(model),
            retrieval=layout.retrieval if cfg.tracking.genai else None,
        )
        children[system] = RunLog(
            name=f"{system} · {cfg.dataset.name} · {cfg.judge.name}",
            tags=_model_tags(common, system, model, translator, data),
            params=model_settings(cfg, layout, params, model),
            metrics=figures[system],
            stored=StoredFiles(
                SAMPLES_MANIFEST, {k: data[k] for k in ("judgments", "generations") if k in data}
            ),
            tables=leaderboard_tables(document, system),
            dataset=dataset,
        )
        languages = languages_of(document["cells"], system)
        children[system].children = _language_runs(
            children[system], system, languages, figures, answers[system]
        )
    genai = _genai_log(cfg, inputs, parent, children, answers) if cfg.tracking.genai else None
    return SweepLog(cfg.tracking.experiment, parent, children, genai)


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


def _parent_files(
    cfg: ParakhConfig,
    inputs: AggregateInputs,
    layout: Layout,
    files: ReportFiles,
    config_path: Path,
) -> tuple[list[Path], StoredFiles, list[tuple[Path, str]]]:
    """The parent run's input files (hashed into tags), the same by their name under `inputs/`
    (to the content store), and its artifacts with their folders (config and report)."""
    used = dict(sorted(inputs.paths.items()))  # answers too: tokens are counted from them
    grades = used.pop("human_grades", None)
    # where each input belongs under `inputs/`: its path relative to paths.processed
    processed = layout.processed.parent.resolve()
    stored = {
        f"processed/{p.resolve().relative_to(processed).as_posix()}": p for p in used.values()
    }
    if grades is not None:
        stored |= stored_grades(grades)
    folders = {files.plots: "report/plots", files.answers_pages: "report/answers"}
    artifacts = [(config_path, INPUTS)]  # and the report's files as on disk: its links hold
    artifacts += [(path, folders.get(path.parent, "report")) for path in output_paths(files, cfg)]
    return list(stored.values()), StoredFiles(f"{INPUTS}/{MANIFEST_FILE}", stored), artifacts


def stored_grades(path: Path) -> dict[str, Path]:
    """The human grades by their name under `inputs/`: a file as HUMAN_GRADES_FILE, a folder's
    grades files and answer keys in HUMAN_GRADES_FOLDER."""
    if not path.is_dir():
        return {HUMAN_GRADES_FILE: path}
    kept = sorted(f for f in path.iterdir() if kept_with_grades(f.name))
    return {f"{HUMAN_GRADES_FOLDER}/{f.name}": f for f in kept}


def _model_tags(
    common: dict[str, str], system: str, model: str, translator: str | None, data: dict[str, Path]
) -> dict[str, str]:
    """A model run's tags: the sweep's, its system, and its sample files by content (sha256,
    and md5 as DVC records it)."""
    return {
        **common,
        "model": system,
        "base_model": model,
        "translator": translator or common["translator"],
        **{f"data.{name}_sha256": sha256_path(p) for name, p in data.items()},
        **dvc_hash_tags(list(data.values())),
    }


def _language_runs(
    model_run: RunLog,
    system: str,
    languages: list[str],
    figures: Figures,
    answers: list[JudgedAnswer],
) -> dict[str, RunLog]:
    """A system's run per language (and `all`), under its model run."""
    return {
        language: RunLog(
            name=f"{system} · {language}{model_run.name.removeprefix(system)}",
            tags={**model_run.tags, "language": language},
            params=model_run.params,
            metrics=figures[f"{system}/{language}"],
            tables={SAMPLES_TABLE: samples_table(answers, language)},
            dataset=model_run.dataset,
        )
        for language in languages
    }


def _genai_log(
    cfg: ParakhConfig,
    inputs: AggregateInputs,
    parent: RunLog,
    children: dict[str, RunLog],
    answers: dict[str, list[JudgedAnswer]],
) -> GenaiLog:
    judge = parent.params.get("judge") or {}
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
        dataset=parent.dataset,
        answers=answers,
        judge_sources={s: judge_model_name(run.params) for s, run in children.items()},
        reference_metrics=set(judge.get("reference_metrics") or []),
        questions=questions,
        tags={"dataset": cfg.dataset.name, "judge": cfg.judge.name},
    )
