"""Aggregate's statistics show progress (#17): a bar over the bootstrap intervals, by model, and
over the rank intervals and paired tests, by metric; none unless asked."""

from __future__ import annotations

import pytest
from tests.report.judge_columns import judge_columns
from tests.report.synthetic_project import MODELS, judgments

from parakh.report.leaderboard import build_leaderboard


def test_bars_over_the_bootstrap_and_the_tests(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [row for model in MODELS for row in judgments(model)]
    quiet = build_leaderboard(
        judge_columns(rows), MODELS, {"factual_correctness": 1.0, "coherence": 1.0}
    )
    assert capsys.readouterr().err == ""
    shown = build_leaderboard(
        judge_columns(rows),
        MODELS,
        {"factual_correctness": 1.0, "coherence": 1.0},
        progress=True,
    )
    err = capsys.readouterr().err
    assert "aggregate: bootstrap intervals: 100%" in err and f"{len(MODELS)}/{len(MODELS)}" in err
    assert "aggregate: rank intervals, paired tests: 100%" in err
    assert shown.cells == quiet.cells and shown.paired == quiet.paired  # the bar changes nothing
