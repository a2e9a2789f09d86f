"""A written report of the synthetic project, shared by the HTML and browser tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tests.report import synthetic_project as synth

from parakh.config import compose
from parakh.report.aggregate_result import compute, write_reports
from parakh.report.files import ReportFiles
from parakh.report.inputs import AggregateInputs

WriteReport = Callable[[Path], ReportFiles]


@pytest.fixture(scope="module")
def write_report() -> WriteReport:
    """Writes the synthetic project's report into a folder (gamma has no answers file)."""
    cfg = compose(["aggregate.statistics.bootstrap_resamples=200"])
    inputs = AggregateInputs(
        judge="smoke",
        models=synth.MODELS,
        judgments={m: synth.judgments(m) for m in synth.MODELS},
        questions=synth.questions(),
        generations={m: synth.generations(m) for m in synth.MODELS[:2]},
    )

    def write(folder: Path) -> ReportFiles:
        files = ReportFiles(folder)
        result = compute(cfg, inputs)
        write_reports(cfg, result, inputs, files, provenance={"git_commit": "abc123"})
        return files

    return write


@pytest.fixture(scope="module")
def written_report(
    write_report: WriteReport, tmp_path_factory: pytest.TempPathFactory
) -> ReportFiles:
    return write_report(Path(tmp_path_factory.mktemp("report")))
