"""`parakh macro`: a metric averaged over datasets, each counting once (the INDIC QA
BENCHMARK's per-dataset-then-across average), with a bootstrap within each dataset."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from parakh.commands import macro
from parakh.config import compose
from parakh.errors import ConfigError
from parakh.io import write_json, write_jsonl
from parakh.report.aggregate_result import compute
from parakh.report.inputs import AggregateInputs
from parakh.schema import Judgment

# dataset -> model -> (items, share scored 1): `a` is better on the small dataset by more than
# it is worse on the large one, so it wins the macro average and loses the pooled one.
DATA = {"small": {"a": (10, 0.9), "b": (10, 0.5)}, "large": {"a": (100, 0.3), "b": (100, 0.5)}}


def _rows(dataset: str, model: str) -> list[Judgment]:
    n, share = DATA[dataset][model]
    return [
        Judgment(
            question_id=f"{dataset}-{i}", model=model, judge="reference", metric="token_f1",
            language="hi", status="ok", score=1.0 if i < round(n * share) else 0.0,
        )
        for i in range(n)
    ]  # fmt: skip


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cfg = compose(["judge=reference", "aggregate.statistics.bootstrap_resamples=200"])
    monkeypatch.setenv("PARAKH_ROOT", str(tmp_path))  # the project whose reports are read
    for dataset, models in DATA.items():
        judgments = {m: _rows(dataset, m) for m in models}
        for model, rows in judgments.items():
            write_jsonl(tmp_path / f"data/processed/{dataset}/judge/reference/{model}.jsonl", rows)
        result = compute(cfg, AggregateInputs("reference", sorted(models), judgments))
        write_json(tmp_path / f"reports/{dataset}/reference/leaderboard.json", result.document())
    return tmp_path


def _run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    macro.add_arguments(parser)
    return macro.run(parser.parse_args(list(argv)))


def test_each_dataset_counts_once(project: Path) -> None:
    assert _run("small", "large", "--metric", "token_f1") == 0
    table = json.loads((project / "reports/macro/reference/token_f1.json").read_text())
    rows = {r["model"]: r for r in table["rows"]}
    assert rows["a"]["macro"]["mean"] == pytest.approx((0.9 + 0.3) / 2)
    assert rows["b"]["macro"]["mean"] == pytest.approx(0.5)
    assert rows["a"]["datasets"] == {"small": pytest.approx(0.9), "large": pytest.approx(0.3)}
    assert [r["model"] for r in table["rows"]] == ["a", "b"]  # pooled over questions: b first
    for row in rows.values():
        m = row["macro"]
        assert m["ci_low"] <= m["mean"] <= m["ci_high"]
    assert rows["b"]["macro"]["ci_low"] < 0.5 < rows["b"]["macro"]["ci_high"]
    text = (project / "reports/macro/reference/token_f1.md").read_text()
    assert "| a | 0.9 | 0.3 | 0.6 [" in text


def test_a_missing_leaderboard_says_what_to_run(project: Path) -> None:
    with pytest.raises(ConfigError, match=r"dvc repro aggregate@xquad_ta"):
        _run("small", "xquad_ta")


def test_the_weighted_aggregate_is_refused(project: Path) -> None:
    with pytest.raises(ConfigError, match="one metric"):
        _run("small", "large", "--metric", "weighted")
