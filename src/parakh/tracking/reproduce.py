"""Rebuild a leaderboard from what a run recorded, and prove the numbers come out identical.

The recorded inputs are laid out as under `paths.processed` and rebuilt with the recorded
config through the stage's own `compute`; every figure is compared with what was recorded. From
an MLflow run: inputs from the content store, figures from the runs' metrics and tables. From a
DVC experiment or git revision: inputs via `dvc.api`, figures from its leaderboard.json.
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from parakh.config.loading import unknown_name_message
from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError, InputError
from parakh.report.aggregate_result import compute, write_reports
from parakh.report.agreement import CURATED_GRADES
from parakh.report.files import ReportFiles
from parakh.report.grades_file import kept_with_grades
from parakh.report.inputs import AggregateInputs
from parakh.stage_outputs import Layout, report_folder, spec_path, summary_path
from parakh.tracking.client import LEVEL, PARENT, open_client
from parakh.tracking.content_store import fetch
from parakh.tracking.metric_names import Figures, cell_figures, figures_of, measured
from parakh.tracking.samples import CELLS_TABLE, RANKS_TABLE
from parakh.tracking.sweep import (
    CONFIG_FILE,
    HUMAN_GRADES_FILE,
    HUMAN_GRADES_FOLDER,
    INPUTS,
    MANIFEST_FILE,
)


@dataclass
class Difference:
    run: str
    name: str
    expected: float | None
    recorded: float | None


@dataclass
class Reproduction:
    source: str
    compared: int
    differences: list[Difference]


def recorded_figures(client: Any, uri: str, sweep_run: Any, workdir: Path) -> Figures:
    """Every figure the sweep run, its model runs and their language runs hold."""
    from mlflow.artifacts import download_artifacts
    from mlflow.exceptions import MlflowException

    def children_of(run_id: str) -> list[Any]:
        return list(
            client.search_runs(
                [sweep_run.info.experiment_id],
                filter_string=f"tags.`{PARENT}` = '{run_id}'",
                max_results=10_000,
            )
        )

    recorded: Figures = {"sweep": dict(sweep_run.data.metrics)}
    for run in children_of(sweep_run.info.run_id):
        model = run.data.tags["model"]
        recorded[model] = dict(run.data.metrics)
        for language_run in children_of(run.info.run_id):
            recorded[f"{model}/{language_run.data.tags['language']}"] = dict(
                language_run.data.metrics
            )
        tables: dict[str, list[dict[str, Any]]] = {}
        for name in (CELLS_TABLE, RANKS_TABLE):
            try:
                local = download_artifacts(
                    run_id=run.info.run_id,
                    artifact_path=name,
                    dst_path=str(workdir / "tables" / model),
                    tracking_uri=uri,
                )
            except (MlflowException, OSError):  # a table deleted from the run: all differ
                tables[name] = []
                continue
            table = json.loads(Path(local).read_text(encoding="utf-8"))  # pandas' split orient
            columns = [*table["columns"], "model"]
            tables[name] = [dict(zip(columns, [*row, model], strict=True)) for row in table["data"]]
        recorded[f"{model}/cells"] = cell_figures(tables[CELLS_TABLE], tables[RANKS_TABLE], model)
    return recorded


def compare(expected: Figures, recorded: Figures) -> tuple[int, list[Difference]]:
    """Exact comparison of every figure both ways: a missing or extra figure is a difference.
    Measured figures (latency, cache hits: `metric_names.measured`) are left out."""
    compared, differences = 0, []
    for run in sorted(set(expected) | set(recorded)):
        want, have = expected.get(run, {}), recorded.get(run, {})
        for name in sorted(n for n in set(want) | set(have) if not measured(n)):
            compared += 1
            if want.get(name) != have.get(name):
                differences.append(Difference(run, name, want.get(name), have.get(name)))
    return compared, differences


def rebuild(
    source: str, folder: Path, config: dict[str, Any], recorded: Figures, output: Path
) -> Reproduction:
    """The leaderboard rebuilt from the config and the inputs laid out under `folder`
    (`processed/<dataset>/...`) and written to `output`, every figure compared with `recorded`."""
    cfg = ParakhConfig.model_validate(config["config"])
    cfg.aggregate.answers_page = False
    layout = Layout(processed=folder / "processed" / cfg.dataset.name, reports=folder / "reports")
    grades = None
    if cfg.aggregate.agreement.human_grades:  # a file, or a folder's files (`stored_grades`)
        grades = folder / HUMAN_GRADES_FILE
        grades = grades if grades.is_file() else folder / HUMAN_GRADES_FOLDER
    inputs = AggregateInputs.load(
        layout, cfg.judge.name, list(config["models"]), human_grades=grades
    )
    result = compute(cfg, inputs)
    write_reports(cfg, result, inputs, ReportFiles(output), provenance={"reproduced_from": source})
    expected = figures_of(result.document(), result.board.models)
    return Reproduction(source, *compare(expected, recorded))


def from_mlflow(run_id: str, uri: str, workdir: Path, output: Path) -> Reproduction:
    from mlflow.artifacts import download_artifacts
    from mlflow.exceptions import MlflowException

    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")
    client = open_client(uri)
    try:
        run = client.get_run(run_id)
    except MlflowException as e:
        raise ConfigError(f"no MLflow run '{run_id}' at {uri}: {e.message}") from e
    while run.data.tags.get(LEVEL) in ("model", "language"):  # up to the sweep run
        run = client.get_run(run.data.tags[PARENT])
    parent_id = run.info.run_id
    download_artifacts(
        run_id=parent_id, artifact_path=INPUTS, dst_path=str(workdir), tracking_uri=uri
    )
    folder = workdir / INPUTS
    for name in (CONFIG_FILE, MANIFEST_FILE):
        if not (folder / name).is_file():
            raise InputError(folder, f"run {parent_id} has no {INPUTS}/{name}: not a sweep run")
    config = json.loads((folder / CONFIG_FILE).read_text(encoding="utf-8"))
    manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    fetch(uri, manifest, folder, workdir / "store")
    recorded = recorded_figures(client, uri, run, workdir)
    return rebuild(f"MLflow run {parent_id} at {uri}", folder, config, recorded, output)


def resolve_revision(repo: Path, name: str) -> str:
    """A DVC experiment name or any git revision -> commit sha."""
    from dvc.repo.experiments.utils import exp_refs
    from dvc.scm import SCM, RevError, resolve_rev

    scm = SCM(str(repo))
    try:
        return str(resolve_rev(scm, name))
    except RevError:
        known = sorted({ref.name for ref in exp_refs(scm)})
        what = "DVC experiment or git revision"
        raise ConfigError(unknown_name_message(what, name, known)) from None


def from_dvc(
    repo: Path, revision: str, dataset: str, judge: str | None, workdir: Path, output: Path
) -> Reproduction:
    """The leaderboard of (`dataset`, `judge`) at `revision`, rebuilt from its recorded inputs;
    `judge=None` takes the `judge` of params.yaml at that revision (the one DVC ran)."""
    import dvc.api

    commit = resolve_revision(repo, revision)

    def read(path: str) -> bytes:
        try:
            data: bytes = dvc.api.read(path, repo=str(repo), rev=commit, mode="rb")
        except Exception as e:  # dvc raises several unrelated types for a missing path
            raise InputError(path, f"not found at revision {revision} ({commit[:10]}): {e}") from e
        return data

    if judge is None:
        judge = str(yaml.safe_load(read("params.yaml"))["judge"])
    recorded_files = ReportFiles(report_folder(Path("reports"), dataset, judge))
    spec = json.loads(read(recorded_files.runspec.as_posix()))
    config = dict(spec["config"])
    models = config.pop("models")
    cfg = ParakhConfig.model_validate(config)
    folder = workdir / INPUTS
    source = Layout(processed=Path(cfg.paths.processed) / dataset, reports=Path(cfg.paths.reports))
    target = Layout(processed=folder / "processed" / dataset, reports=folder / "reports")
    wanted = [(source.curated_questions, target.curated_questions)]
    wanted += [
        (source.judgments(cfg.judge.name, m), target.judgments(cfg.judge.name, m)) for m in models
    ]
    for m in models:  # what the costs are counted from, where recorded
        for path in _usage_files(source, cfg.judge.name, m):
            with suppress(InputError):
                data = read(path.as_posix())
                destination = target.processed / path.relative_to(source.processed)
                destination.parent.mkdir(parents=True, exist_ok=True)
                destination.write_bytes(data)
    if human := cfg.aggregate.agreement.human_grades:
        wanted += [(Path(p), folder / name) for name, p in _grades_at(repo, commit, human).items()]
    curated = source.curated_questions.with_name(CURATED_GRADES)
    with suppress(InputError):  # curated grades of answers pair with judge rows through them
        grades = read(curated.as_posix())
        target.curated_questions.parent.mkdir(parents=True, exist_ok=True)
        target.curated_questions.with_name(CURATED_GRADES).write_bytes(grades)
    for path, destination in wanted:
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(read(path.as_posix()))
    files = ReportFiles(report_folder(Path(cfg.paths.reports), dataset, judge))
    document = json.loads(read(files.leaderboard_json.as_posix()))
    recorded = figures_of(document, document["models"])
    where = f"DVC revision {revision} ({commit[:10]})"
    return rebuild(where, folder, {"config": config, "models": models}, recorded, output)


def _grades_at(repo: Path, commit: str, path: str) -> dict[str, str]:
    """The human grades at `commit` by their name under `inputs/`, as a sweep stores them
    (`sweep.stored_grades`): a file, or a folder's grades files and answer keys."""
    from dvc.api import DVCFileSystem

    fs = DVCFileSystem(str(repo), rev=commit)
    if not fs.isdir(path):
        return {HUMAN_GRADES_FILE: path}
    found = sorted(p for p in fs.find(path) if kept_with_grades(Path(p).name))
    return {
        f"{HUMAN_GRADES_FOLDER}/{Path(p).name}": p for p in found if Path(p).parent == Path(path)
    }


def _usage_files(layout: Layout, judge: str, model: str) -> list[Path]:
    """The files a model's costs are counted from (`costs.read_usage`)."""
    generations = layout.generations(model)
    return [generations, spec_path(generations), summary_path(layout.judgments(judge, model))]
