"""MLflow logging: a parent run per sweep (dataset, judge, models), a child run per model.

Every leaderboard figure is a metric of its model's child run, named by `cell_metric_name`
(`weighted.hi`, `chrf.all.ci_low`, `token_f1.category.kb-update.invalid`); rank intervals are
child metrics too, paired tests and judge-human agreement are parent metrics. Tags say dataset,
model, judge, translator, retriever, embedder, git commit and the DVC (md5) hash of every input
file; params hold the resolved config; the parent's artifacts hold the report, the plots and
the exact inputs (`inputs/`) from which `parakh reproduce` rebuilds the leaderboard.

Tracking URI: `tracking.uri` if set, else MLFLOW_TRACKING_URI, else `sqlite:///mlflow.db` in
the project root. A sweep is keyed by the hash of everything it logs, so re-running aggregate
on unchanged inputs logs nothing twice; a sweep counts as logged only once it is complete.
"""

from __future__ import annotations

import fcntl
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parakh.hashing import sha256_obj, sha256_path, sha256_text
from parakh.paths import project_root

RUN_KEY = "parakh.run_key"
LEVEL = "parakh.level"
COMPLETE = "parakh.complete"
PARENT = "mlflow.parentRunId"
PARENT_RUN_ENV = "PARAKH_MLFLOW_PARENT_RUN_ID"
CELL_FIGURES = ("mean", "percent", "ci_low", "ci_high", "n", "invalid", "errors", "skipped")
_UNSAFE = re.compile(r"[^A-Za-z0-9_\-. /:]")


def tracking_uri(configured: str | None) -> str:
    if configured:
        return configured
    env = os.environ.get("MLFLOW_TRACKING_URI")
    if env:
        return env
    return f"sqlite:///{project_root() / 'mlflow.db'}"


def sqlite_path(uri: str) -> Path | None:
    """The database file of a `sqlite:///` tracking URI; None for any other store."""
    prefix = "sqlite:///"
    return Path(uri[len(prefix) :]) if uri.startswith(prefix) else None


def open_client(uri: str) -> Any:
    """An MlflowClient for `uri`, its store ready.

    A new SQLite store is created (tables, then schema migrations) by the first client that
    touches it; parallel jobs (a Hydra launcher's workers) doing that at once collide ("duplicate
    column", alembic's "expected to match one row"). So the first touch of a SQLite store holds
    an exclusive lock on `<db>.lock` beside it: one process creates, the others then find it
    made. Tracking servers serialise this themselves.
    """
    from mlflow.tracking import MlflowClient

    database = sqlite_path(uri)
    if database is None:
        return MlflowClient(uri)
    database.parent.mkdir(parents=True, exist_ok=True)
    with open(database.with_name(database.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            client = MlflowClient(uri)  # creates and migrates a new store
            client.search_experiments(max_results=1)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return client


def experiment_id(client: Any, name: str) -> str:
    """The id of the named experiment, created if absent (by this process or, in a sweep whose
    jobs start together, by another one between the lookup and the create).

    Callers pass the tracking URI to `open_client` and never call `mlflow.set_tracking_uri`,
    which writes MLFLOW_TRACKING_URI into os.environ for every later subprocess to inherit.
    """
    from mlflow.exceptions import MlflowException

    exp = client.get_experiment_by_name(name)
    if exp is not None:
        return str(exp.experiment_id)
    try:
        return str(client.create_experiment(name))
    except MlflowException:
        exp = client.get_experiment_by_name(name)  # another job created it first
        if exp is None:
            raise
        return str(exp.experiment_id)


def parent_run_tags() -> dict[str, str]:
    """The tag that makes a run the child of its sweep's parent run, when the job runs under a
    driver that exported the parent's id as PARAKH_MLFLOW_PARENT_RUN_ID (`start_parent_run`)."""
    parent = os.environ.get(PARENT_RUN_ENV)
    return {PARENT: parent} if parent else {}


def start_parent_run(
    uri: str, experiment: str, name: str, tags: dict[str, str] | None = None
) -> str:
    """Create the parent run of a sweep whose jobs log in parallel (SLURM, joblib); give its id
    to the jobs as PARAKH_MLFLOW_PARENT_RUN_ID, and end it with `end_parent_run`."""
    client = open_client(uri)
    run = client.create_run(
        experiment_id(client, experiment), tags={LEVEL: "jobs", **(tags or {})}, run_name=name
    )
    return str(run.info.run_id)


def end_parent_run(uri: str, run_id: str, *, failed: bool = False) -> None:
    open_client(uri).set_terminated(run_id, status="FAILED" if failed else "FINISHED")


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, f"{name}."))
        else:
            out[name] = str(value)[:6000]
    return out


def safe_name(text: str) -> str:
    """`text` with characters MLflow does not allow in metric names replaced by `_`, plus a
    short hash of the original when anything was replaced, so that two names differing only
    in such characters (two categories in Devanagari) never collide."""
    safe = _UNSAFE.sub("_", text)
    return safe if safe == text else f"{safe}_{sha256_text(text)[:6]}"


def cell_metric_name(metric: str, dimension: str, value: str, figure: str = "mean") -> str:
    """The MLflow metric of one leaderboard figure.

    `<metric>.all`, `<metric>.<language>`, `<metric>.category.<c>`, `<metric>.domain.<d>`;
    figures other than the mean get a suffix (`.ci_low`, `.n`, `.invalid`, ...).
    """
    metric, value = safe_name(metric), safe_name(value)
    if dimension == "all":
        base = f"{metric}.all"
    elif dimension == "language":
        base = f"{metric}.{value}"
    else:
        base = f"{metric}.{dimension}.{value}"
    return base if figure == "mean" else f"{base}.{figure}"


def metric_name(metric: str, language: str) -> str:
    return cell_metric_name(metric, "all" if language == "all" else "language", language)


def model_metrics(
    cells: list[dict[str, Any]], ranks: list[dict[str, Any]], model: str
) -> dict[str, float]:
    """Every figure of one model's leaderboard cells and rank intervals, by MLflow name."""
    out: dict[str, float] = {}
    for c in cells:
        if c["model"] != model:
            continue
        for figure in CELL_FIGURES:
            if c[figure] is not None:
                name = cell_metric_name(c["metric"], c["dimension"], c["value"], figure)
                out[name] = float(c[figure])
    for r in ranks:
        if r["model"] == model:
            base = f"rank.{safe_name(r['metric'])}"
            out[base] = float(r["rank"])
            out[f"{base}.low"] = float(r["rank_low"])
            out[f"{base}.high"] = float(r["rank_high"])
    return out


def sweep_metrics(
    paired: list[dict[str, Any]], agreement: list[dict[str, Any]]
) -> dict[str, float]:
    """Paired tests and judge-human agreement, by MLflow name, for the sweep's parent run."""
    out: dict[str, float] = {}
    for p in paired:
        pair = f"{safe_name(p['model_a'])} vs {safe_name(p['model_b'])}"
        base = f"paired.{safe_name(p['metric'])}.{pair}"
        for figure in ("n", "difference", "ci_low", "ci_high", "p_value", "p_holm"):
            if p[figure] is not None:
                out[f"{base}.{figure}"] = float(p[figure])
    for a in agreement:
        base = agreement_base(a)
        slices = {"all": a["overall"], **a["by_language"]}
        slices |= {f"model.{model}": stats for model, stats in a.get("by_model", {}).items()}
        for language, stats in slices.items():
            for figure, value in stats.items():
                if figure == "intervals":
                    for name, (low, high) in value.items():
                        out[f"{base}.{safe_name(language)}.{name}.ci_low"] = float(low)
                        out[f"{base}.{safe_name(language)}.{name}.ci_high"] = float(high)
                elif value is not None:
                    out[f"{base}.{safe_name(language)}.{figure}"] = float(value)
        ranking = a.get("ranking")
        if ranking:
            for figure in ("n_models", "spearman", "kendall_tau"):
                if ranking[figure] is not None:
                    out[f"{base}.ranking.{figure}"] = float(ranking[figure])
            for name, (low, high) in ranking.get("intervals", {}).items():
                out[f"{base}.ranking.{name}.ci_low"] = float(low)
                out[f"{base}.ranking.{name}.ci_high"] = float(high)
    return out


def agreement_base(agreement: dict[str, Any]) -> str:
    """`agreement.<metric>` for a grades file, `agreement.answers.<metric>` for curated
    grades of answers (paired by answer text)."""
    source = agreement.get("source", "grades")
    prefix = "agreement" if source == "grades" else f"agreement.{safe_name(source)}"
    return f"{prefix}.{safe_name(agreement['metric'])}"


@dataclass
class RunLog:
    """What one MLflow run holds; artifacts are (local file, artifact folder) pairs."""

    name: str
    tags: dict[str, str]
    params: dict[str, Any]
    metrics: dict[str, float]
    artifacts: list[tuple[Path, str]] = field(default_factory=list)

    def key_material(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tags": self.tags,
            "params": flatten(self.params),
            "metrics": self.metrics,
            "artifacts": [
                (folder, p.name, sha256_path(p)) for p, folder in self.artifacts if p.exists()
            ],
        }


@dataclass
class SweepLog:
    experiment: str
    parent: RunLog
    children: dict[str, RunLog]

    def run_key(self) -> str:
        return sha256_obj(
            {
                "experiment": self.experiment,
                "parent": self.parent.key_material(),
                "children": {m: r.key_material() for m, r in sorted(self.children.items())},
            }
        )


@dataclass(frozen=True)
class SweepIds:
    parent: str
    children: dict[str, str]
    logged: bool  # False: an identical complete sweep existed and was reused


def _log_run(client: Any, run_id: str, run: RunLog) -> None:
    from mlflow.entities import Metric, Param

    metrics = [Metric(k, v, 0, 0) for k, v in sorted(run.metrics.items())]
    params = [Param(k, v) for k, v in sorted(flatten(run.params).items())]
    for i in range(0, len(params), 100):
        client.log_batch(run_id, params=params[i : i + 100])
    for i in range(0, len(metrics), 900):
        client.log_batch(run_id, metrics=metrics[i : i + 900])
    for path, folder in run.artifacts:
        if path.exists():
            client.log_artifact(run_id, str(path), artifact_path=folder)


def find_sweep(client: Any, experiment_id: str, key: str) -> SweepIds | None:
    found = client.search_runs(
        [experiment_id],
        filter_string=f"tags.`{RUN_KEY}` = '{key}' and tags.`{COMPLETE}` = 'true'",
        max_results=1,
    )
    if not found:
        return None
    parent = found[0].info.run_id
    children = client.search_runs(
        [experiment_id], filter_string=f"tags.`{PARENT}` = '{parent}'", max_results=10_000
    )
    return SweepIds(
        parent=str(parent),
        children={r.data.tags.get("model", r.info.run_id): str(r.info.run_id) for r in children},
        logged=False,
    )


def log_sweep(uri: str, sweep: SweepLog) -> SweepIds:
    """Log the sweep (or find the identical complete one); returns the run ids."""
    client = open_client(uri)
    exp_id = experiment_id(client, sweep.experiment)
    key = sweep.run_key()
    existing = find_sweep(client, exp_id, key)
    if existing is not None:
        return existing
    parent = client.create_run(
        exp_id, tags={**sweep.parent.tags, RUN_KEY: key, LEVEL: "sweep"}, run_name=sweep.parent.name
    )
    parent_id = parent.info.run_id
    children: dict[str, str] = {}
    try:
        _log_run(client, parent_id, sweep.parent)
        for model, run in sweep.children.items():
            child = client.create_run(
                exp_id,
                tags={**run.tags, PARENT: parent_id, LEVEL: "model", RUN_KEY: key},
                run_name=run.name,
            )
            children[model] = child.info.run_id
            _log_run(client, child.info.run_id, run)
            client.set_terminated(child.info.run_id)
        client.set_tag(parent_id, COMPLETE, "true")
        client.set_terminated(parent_id)
    except BaseException:
        client.set_terminated(parent_id, status="FAILED")
        raise
    return SweepIds(parent=str(parent_id), children=children, logged=True)
