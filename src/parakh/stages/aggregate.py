"""aggregate: leaderboards with intervals, HTML report, DVC metrics and plots, MLflow runs.

Before anything is computed, the judge rows must cover the run: every (question, model, metric)
row the judge writes, once (`parakh.report.partial`); `aggregate.allow_partial=true` reports a
run with missing rows as partial on every output instead.

python -m parakh.stages.aggregate dataset=demo judge=smoke 'models=[extractive,smollm2]'
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from parakh import __version__
from parakh.config import ParakhConfig, hydra_entry
from parakh.hashing import sha256_path
from parakh.project import resolve
from parakh.report.aggregate_result import AggregateResult, compute, write_reports
from parakh.report.files import ReportFiles
from parakh.report.inputs import AggregateInputs, models_to_aggregate
from parakh.report.partial import require_coverage
from parakh.stage_outputs import Layout, ledgers
from parakh.tracking.runspec import git_commit, write_run_spec

__all__ = ["load_inputs", "main", "main_task", "models_to_aggregate", "run"]


def run(cfg: ParakhConfig, inputs: AggregateInputs) -> AggregateResult:
    """The leaderboard, agreement and judge bias of `inputs` (no file written), once the judge
    rows are known to cover the run (or `aggregate.allow_partial` marks it partial)."""
    return compute(cfg, inputs, partial=require_coverage(cfg, inputs))


def load_inputs(cfg: ParakhConfig, layout: Layout, models: list[str]) -> AggregateInputs:
    grades = cfg.aggregate.agreement.human_grades
    return AggregateInputs.load(
        layout,
        cfg.judge.name,
        models,
        human_grades=resolve(grades) if grades else None,
        with_generations=cfg.aggregate.answers_page,
        ledgers=ledgers(cfg),
    )


def main_task(cfg: ParakhConfig) -> None:
    layout = Layout.of(cfg)
    files = ReportFiles(layout.reports)
    models = models_to_aggregate(cfg)
    inputs = load_inputs(cfg, layout, models)
    result = run(cfg, inputs)
    commit = git_commit()
    # What the report shows holds nothing that changes between identical runs: the commit
    # (tagged on the MLflow runs) would change report.html, a DVC output, with every commit,
    # including the one that records dvc.lock.
    provenance = {
        "parakh_version": __version__,
        "inputs_sha256": {k: sha256_path(p) for k, p in sorted(inputs.paths.items())},
        "models": models,
    }
    text = write_reports(cfg, result, inputs, files, provenance=provenance)
    write_run_spec(
        files.runspec,
        stage="aggregate",
        config={**cfg.model_dump(mode="json"), "models": models},
        inputs=inputs.paths,
    )
    print(text)
    if result.partial is not None:
        print(f"aggregate: {result.partial.text}")
    print(f"aggregate: report -> {files.report_html}")
    if not cfg.tracking.enabled:
        return
    from parakh.tracking.client import tracking_uri
    from parakh.tracking.mlflow_log import log_sweep
    from parakh.tracking.sweep import build_sweep

    uri = tracking_uri(cfg.tracking.uri)
    with tempfile.TemporaryDirectory(prefix="parakh-mlflow-") as scratch:
        sweep = build_sweep(
            cfg, result, inputs, layout, files, commit=commit, scratch=Path(scratch)
        )
        ids = log_sweep(uri, sweep)
    state = "logged" if ids.logged else "unchanged, already logged"
    print(f"aggregate: MLflow sweep run {ids.parent} ({state}) -> {uri}")


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
