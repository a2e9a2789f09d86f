"""MLflow metric names and which run holds them, params from run specs, tables, dataset
inputs, sweep keys and DVC hash tags, without a server."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from parakh.tracking.metric_names import (
    cell_figures,
    cell_metric_name,
    language_run_metrics,
    languages_of,
    model_run_metrics,
    safe_name,
)
from parakh.tracking.mlflow_log import RunLog, SweepLog
from parakh.tracking.runspec import dvc_hash_tags, dvc_md5


def test_cell_metric_names() -> None:
    assert cell_metric_name("weighted", "all", "all") == "weighted.all"
    assert cell_metric_name("chrf", "language", "hi", "ci_low") == "chrf.hi.ci_low"
    assert cell_metric_name("f1", "category", "kb-update", "n") == "f1.category.kb-update.n"
    assert cell_metric_name("chrf", "language", "ta") == "chrf.ta"
    assert safe_name("a-b.c/d:e f") == "a-b.c/d:e f"


def test_unsafe_characters_are_replaced_without_collisions() -> None:
    first = cell_metric_name("f1", "category", "नेत्र")
    second = cell_metric_name("f1", "category", "मधुमेह")
    assert first != second and first.startswith("f1.category.")
    assert cell_metric_name("f1", "domain", "eye (adult)").startswith("f1.domain.eye _adult__")


def test_cell_figures_skip_missing_figures_and_add_ranks() -> None:
    cell = {
        "model": "m",
        "metric": "x",
        "dimension": "language",
        "value": "hi",
        "mean": None,
        "percent": None,
        "ci_low": None,
        "ci_high": None,
        "n": 0,
        "invalid": 2,
        "errors": 0,
        "skipped": 1,
    }
    ranks = [{"metric": "x", "model": "m", "rank": 2, "rank_low": 1, "rank_high": 3}]
    metrics = cell_figures([cell], ranks, "m")
    assert metrics == {
        "x.hi.n": 0.0,
        "x.hi.invalid": 2.0,
        "x.hi.errors": 0.0,
        "x.hi.skipped": 1.0,
        "rank.x": 2.0,
        "rank.x.low": 1.0,
        "rank.x.high": 3.0,
    }


def _cell(model: str, dimension: str, value: str, metric: str, mean: float) -> dict:
    return {
        "model": model,
        "metric": metric,
        "dimension": dimension,
        "value": value,
        "mean": mean,
        "percent": 100 * mean,
        "ci_low": mean - 0.1,
        "ci_high": mean + 0.1,
        "n": 8,
        "invalid": 1,
        "errors": 0,
        "skipped": 0,
    }


def test_each_run_holds_its_view_under_its_names() -> None:
    """A model run: metrics.json's means; a language run: plain names, the primary metric's
    rank on `all`; category and domain cells only in the tables (`cell_figures`)."""
    cells = [
        _cell("m", dimension, value, metric, 0.5)
        for metric in ("chrf", "weighted")
        for dimension, value in (("all", "all"), ("language", "hi"), ("category", "kb-update"))
    ] + [_cell("other", "language", "ta", "chrf", 0.2)]
    ranks = [
        {"metric": metric, "model": "m", "rank": 1, "rank_low": 1, "rank_high": 2}
        for metric in ("chrf", "weighted")
    ]
    assert languages_of(cells, "m") == ["all", "hi"]
    assert model_run_metrics(cells, "m") == {
        "chrf.all": 0.5,
        "chrf.hi": 0.5,
        "weighted.all": 0.5,
        "weighted.hi": 0.5,
    }
    hindi = language_run_metrics(cells, ranks, "m", "hi", "weighted")
    assert hindi == {
        f"{metric}{suffix}": value
        for metric in ("chrf", "weighted")
        for suffix, value in (("", 0.5), ("_ci_low", 0.4), ("_ci_high", 0.6), ("_n", 8.0))
    }
    overall = language_run_metrics(cells, ranks, "m", "all", "weighted")
    assert set(overall) - set(hindi) == {"rank", "rank_low", "rank_high"}
    assert overall["rank_high"] == 2.0
    assert "chrf.category.kb-update.invalid" in cell_figures(cells, ranks, "m")


def _sweep(
    tmp_path: Path,
    value: float,
    artifact: str = "rows",
    table: dict[str, list[object]] | None = None,
    hindi: float = 1.0,
) -> SweepLog:
    data = tmp_path / "data.jsonl"
    data.write_text(artifact)
    language = RunLog("d/m/j/hi", {"language": "hi"}, {"seed": 0}, {"x": hindi})
    child = RunLog(
        "d/m/j",
        {"model": "m"},
        {"seed": 0},
        {"x.all": value},
        [(data, "samples")],
        tables={"t.json": table or {"a": [1]}},
        children={"hi": language},
    )
    return SweepLog("exp", RunLog("d/j", {"dataset": "d"}, {"seed": 0}, {}), {"m": child})


def test_sweep_key_covers_metrics_tables_language_runs_and_artifact_contents(
    tmp_path: Path,
) -> None:
    key = _sweep(tmp_path, 0.5).run_key()
    assert _sweep(tmp_path, 0.5).run_key() == key
    assert _sweep(tmp_path, 0.6).run_key() != key
    assert _sweep(tmp_path, 0.5, artifact="other rows").run_key() != key
    assert _sweep(tmp_path, 0.5, table={"a": [2]}).run_key() != key
    assert _sweep(tmp_path, 0.5, hindi=2.0).run_key() != key


def test_dvc_hash_tags_are_md5_relative_to_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARAKH_ROOT", str(tmp_path))
    path = tmp_path / "data" / "x.jsonl"
    path.parent.mkdir()
    path.write_bytes(b"abc\n")
    expected = hashlib.md5(b"abc\n").hexdigest()
    assert dvc_md5(path) == expected
    assert dvc_hash_tags([path, tmp_path / "missing.jsonl"]) == {"dvc.md5.data/x.jsonl": expected}
