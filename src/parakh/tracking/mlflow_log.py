"""MLflow logging of one sweep (what each run holds: `parakh.tracking.sweep`). A sweep is keyed
by the hash of everything it logs, so re-running aggregate on unchanged inputs logs nothing
twice; a sweep counts as logged only once it is complete.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parakh.hashing import sha256_obj, sha256_path
from parakh.tracking.client import (
    COMPLETE,
    LEVEL,
    PARAMS_CUT,
    PARENT,
    RUN_KEY,
    experiment_id,
    open_client,
)
from parakh.tracking.content_store import ContentStore, StoredFiles
from parakh.tracking.datasets import DatasetRef
from parakh.tracking.genai import GenaiLog, log_genai
from parakh.tracking.params import PARAMS_FILE, cut_params, flatten
from parakh.tracking.samples import Table
from parakh.tracking.stage_runs import log_values


@dataclass
class RunLog:
    """What one MLflow run holds; artifacts are (local file, artifact folder) pairs, tables
    (artifact file -> columns) are logged with `log_table`, `stored` files go to the content
    store with a manifest in the run, `children` (language runs of a model run) are logged as
    its child runs."""

    name: str
    tags: dict[str, str]
    params: dict[str, Any]
    metrics: dict[str, float]
    artifacts: list[tuple[Path, str]] = field(default_factory=list)
    tables: dict[str, Table] = field(default_factory=dict)
    dataset: DatasetRef | None = None
    children: dict[str, RunLog] = field(default_factory=dict)
    stored: StoredFiles | None = None

    def key_material(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tags": self.tags,
            "params": flatten(self.params),
            "metrics": self.metrics,
            "artifacts": [
                (folder, p.name, sha256_path(p)) for p, folder in self.artifacts if p.exists()
            ],
            "tables": {name: sha256_obj(table) for name, table in sorted(self.tables.items())},
            "dataset": None if self.dataset is None else self.dataset.key_material(),
            "children": {k: r.key_material() for k, r in sorted(self.children.items())},
            "stored": None if self.stored is None else self.stored.key_material(),
        }


@dataclass
class SweepLog:
    experiment: str
    parent: RunLog
    children: dict[str, RunLog]  # model (leaderboard system) -> its run
    genai: GenaiLog | None = None  # traces, assessments and evaluation dataset, if enabled

    def run_key(self) -> str:
        material: dict[str, Any] = {
            "experiment": self.experiment,
            "parent": self.parent.key_material(),
            "children": {m: r.key_material() for m, r in sorted(self.children.items())},
        }
        if self.genai is not None:
            material["genai"] = self.genai.key_material()
        return sha256_obj(material)


@dataclass(frozen=True)
class SweepIds:
    parent: str
    logged: bool  # False: an identical complete sweep existed and was reused
    notes: list[str] = field(default_factory=list)  # what else was logged, or left out


def _log_run(client: Any, run_id: str, run: RunLog, store: ContentStore) -> None:
    log_values(client, run_id, run.params, run.metrics)
    cut = cut_params(run.params)
    if cut:  # the whole values, and which params MLflow holds cut
        client.log_dict(run_id, run.params, PARAMS_FILE)
        client.set_tag(run_id, PARAMS_CUT, ",".join(cut)[:8000])
    if run.dataset is not None:
        client.log_inputs(run_id, datasets=[run.dataset.run_input()])
    for name, table in run.tables.items():
        client.log_table(run_id, data=table, artifact_file=name)
    for path, folder in run.artifacts:
        if path.exists():
            client.log_artifact(run_id, str(path), artifact_path=folder)
    if run.stored is not None:
        client.log_dict(run_id, store.manifest(run.stored.files), run.stored.manifest)


def _start_run(
    client: Any, exp_id: str, run: RunLog, tags: dict[str, str], store: ContentStore
) -> str:
    created = client.create_run(exp_id, tags={**run.tags, **tags}, run_name=run.name)
    run_id = str(created.info.run_id)
    _log_run(client, run_id, run, store)
    return run_id


def log_sweep(uri: str, sweep: SweepLog) -> SweepIds:
    """Log the sweep (or find the identical complete one); returns the run ids."""
    client = open_client(uri)
    exp_id = experiment_id(client, sweep.experiment)
    key = sweep.run_key()
    found = client.search_runs(
        [exp_id],
        filter_string=f"tags.`{RUN_KEY}` = '{key}' and tags.`{COMPLETE}` = 'true'",
        max_results=1,
    )
    if found:
        return SweepIds(parent=str(found[0].info.run_id), logged=False)
    parent = client.create_run(
        exp_id, tags={**sweep.parent.tags, RUN_KEY: key, LEVEL: "sweep"}, run_name=sweep.parent.name
    )
    parent_id = parent.info.run_id
    by_language: dict[tuple[str, str], str] = {}
    notes: list[str] = []
    store = ContentStore(client, exp_id)
    try:
        _log_run(client, parent_id, sweep.parent, store)
        for model, run in sweep.children.items():
            child_id = _start_run(
                client, exp_id, run, {PARENT: parent_id, LEVEL: "model", RUN_KEY: key}, store
            )
            for language, language_run in run.children.items():
                tags = {PARENT: child_id, LEVEL: "language", RUN_KEY: key}
                language_id = _start_run(client, exp_id, language_run, tags, store)
                by_language[(model, language)] = language_id
                client.set_terminated(language_id)
            client.set_terminated(child_id)
        if store.run_id is not None:
            notes.append(store.summary())
            print(f"MLflow: {notes[-1]}")
        if sweep.genai is not None:
            notes.append(log_genai(uri, exp_id, sweep.genai, by_language, key))
            print(f"MLflow: {notes[-1]}")  # aggregate prints the sweep's run id after this
        client.set_tag(parent_id, COMPLETE, "true")
        client.set_terminated(parent_id)
    except BaseException:
        client.set_terminated(parent_id, status="FAILED")
        raise
    return SweepIds(parent=str(parent_id), logged=True, notes=notes)
