"""CSV, JSON, DVC metrics and markdown carry the same rounded figures."""

from __future__ import annotations

import csv
import io

import pytest
from tests.report import synthetic_project as synth
from tests.report.judge_columns import judge_columns

from parakh.report import tables
from parakh.report.leaderboard import WEIGHTED, build_leaderboard

WEIGHTS = {"factual_correctness": 0.4, "coherence": 0.15}


@pytest.fixture(scope="module")
def board():
    rows = [r for m in synth.MODELS for r in synth.judgments(m)]
    return build_leaderboard(judge_columns(rows), synth.MODELS, WEIGHTS)


def test_csv_rows_equal_the_records(board) -> None:
    records = tables.cell_records(board)
    parsed = list(csv.DictReader(io.StringIO(tables.csv_text(board))))
    assert len(parsed) == len(records) == len(board.cells)
    for row, record in zip(parsed, records, strict=True):
        for key in tables.CSV_FIELDS:
            value = record[key]
            if value is None:
                assert row[key] == ""
            elif isinstance(value, str):
                assert row[key] == value
            else:
                assert float(row[key]) == value


def test_records_are_rounded_and_ordered(board) -> None:
    records = tables.cell_records(board)
    assert [r["model"] for r in records[:1]] == ["alpha"] and records[0]["metric"] == WEIGHTED
    assert records[0]["dimension"] == "all"
    for r in records:
        assert r["mean"] == round(r["mean"], 6) and r["ci_low"] <= r["mean"] <= r["ci_high"]


def test_metrics_dict_holds_language_and_overall_means(board) -> None:
    metrics = tables.metrics_dict(board)
    assert set(metrics) == set(synth.MODELS)
    assert set(metrics["alpha"]["chrf"]) == {"all", "en", "hi", "ta"}
    assert metrics["alpha"]["chrf"]["all"] == round(board.get("alpha", "chrf").mean, 6)


def test_document_has_ranks_and_paired_tests(board) -> None:
    doc = tables.leaderboard_document(board, primary_metric=WEIGHTED)
    assert doc["settings"]["bootstrap_resamples"] == 1000 and doc["primary_metric"] == WEIGHTED
    ranks = {(r["metric"], r["model"]): r for r in doc["ranks"]}
    assert ranks[(WEIGHTED, "alpha")]["rank"] == 1
    assert {p["metric"] for p in doc["paired"]} == set(board.metrics)


def test_markdown_cells_show_mean_interval_and_counts(board) -> None:
    text = tables.markdown(tables.overall_table(board))
    cell = board.get("alpha", "factual_correctness")
    expected = f"{cell.mean:.3f} ({cell.percent:.1f}%) [{cell.ci_low:.3f}, {cell.ci_high:.3f}]"
    assert expected in text and f"{cell.invalid} inv" in text
    chrf = board.get("alpha", "chrf")
    assert f"{chrf.mean:.1f} ({chrf.percent:.1f}%) [{chrf.ci_low:.1f}, {chrf.ci_high:.1f}]" in text
    # alpha is the best model on every metric: its cells end with the best mark, gamma's not
    f1 = board.get("alpha", "token_f1")
    assert f"| {f1.mean:.3f} [{f1.ci_low:.3f}, {f1.ci_high:.3f}] ★ |" in text
    gamma = board.get("gamma", "token_f1")
    assert f"| {gamma.mean:.3f} [{gamma.ci_low:.3f}, {gamma.ci_high:.3f}] |" in text
    by_category = tables.markdown(tables.slice_table(board, "chrf", "category"))
    assert "kb-update" in by_category.splitlines()[0]
