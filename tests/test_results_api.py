"""`parakh.results`: the aggregate's files and the judge rows as DataFrames, read back as written.

On the committed demo metrics (reports/demo/smoke/metrics.json) and on the synthetic project of
tests/report, aggregated here (three models, 24 questions, every row status).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from parakh import results
from parakh.config import compose
from parakh.errors import ConfigError, InputError
from parakh.schema import Judgment
from parakh.stages import aggregate
from tests.conftest import REPO
from tests.report import synthetic_project as synth


def test_metrics_of_the_committed_demo_report() -> None:
    path = REPO / "reports" / "demo" / "smoke" / "metrics.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    frame = results.metrics("demo", judge="smoke")
    assert list(frame.columns) == ["model", "metric", "language", "mean"]
    assert set(frame.model) == set(document) - set(results.SECTIONS)
    models = {model: document[model] for model in set(document) - set(results.SECTIONS)}
    assert len(frame) == sum(len(by) for metrics in models.values() for by in metrics.values())
    for row in frame.itertuples():
        assert row.mean == document[row.model][row.metric][row.language]
    assert "all" in set(frame.language) and "hi" in set(frame.language)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = synth.make_project(tmp_path_factory.mktemp("results") / "project")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PARAKH_ROOT", str(root))
        aggregate.main_task(
            compose(["tracking.enabled=false", "aggregate.statistics.bootstrap_resamples=200"])
        )
    yield root


@pytest.fixture
def at_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PARAKH_ROOT", str(project))
    return project


def _published(root: Path) -> dict:
    path = root / "reports" / "demo" / "smoke" / "leaderboard.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_leaderboard_is_every_published_cell(at_project: Path) -> None:
    board = results.leaderboard("demo")
    published = _published(at_project)
    assert board.equals(pd.DataFrame.from_records(published["cells"])[list(board.columns)])
    assert board.attrs["primary_metric"] == "weighted" == published["primary_metric"]
    assert board.attrs["primary_direction"] == "higher"
    assert set(board.model) == set(synth.MODELS)
    header = (at_project / "reports/demo/smoke/leaderboard.csv").read_text().splitlines()[0]
    assert list(board.columns) == header.split(",")[: len(board.columns)]  # then the costs
    overall = board[(board.metric == "weighted") & (board.dimension == "all")]
    assert overall.set_index("model")["mean"].idxmax() == "alpha"  # the most skilled model


def test_leaderboard_of_a_named_judge_is_the_same(at_project: Path) -> None:
    assert results.leaderboard("demo", judge="smoke").equals(results.leaderboard("demo"))
    assert results.report_files("demo").root == at_project / "reports" / "demo" / "smoke"


def test_ranks_and_paired_differences(at_project: Path) -> None:
    published = _published(at_project)
    ranks = results.ranks("demo")
    assert ranks.equals(pd.DataFrame.from_records(published["ranks"])[list(ranks.columns)])
    assert {"metric", "model", "rank", "rank_low", "rank_high"} <= set(ranks.columns)
    paired = results.paired("demo")
    assert paired.equals(pd.DataFrame.from_records(published["paired"])[list(paired.columns)])
    assert {"model_a", "model_b", "difference", "p_holm", "better"} <= set(paired.columns)


def test_metrics_are_the_overall_and_per_language_cells(at_project: Path) -> None:
    board = results.leaderboard("demo")
    cells = board[board.dimension.isin(["all", "language"]) & board["mean"].notna()]
    frame = results.metrics("demo")
    expected = cells.rename(columns={"value": "language"})[["model", "metric", "language", "mean"]]
    key = ["model", "metric", "language"]
    assert (
        frame.sort_values(key)
        .reset_index(drop=True)
        .equals(expected.sort_values(key).reset_index(drop=True))
    )


def test_samples_are_the_judge_rows(at_project: Path) -> None:
    rows = results.samples("demo")
    assert list(rows.columns) == list(Judgment.model_fields)
    assert len(rows) == len(synth.MODELS) * synth.N_QUESTIONS * len(synth.METRICS)
    assert set(rows.status) == {"ok", "invalid", "error", "skipped"}
    alpha = results.samples("demo", model="alpha")
    expected = pd.DataFrame([r.model_dump() | {"sample": 0} for r in synth.judgments("alpha")])
    assert alpha.equals(expected[list(Judgment.model_fields)])
    two = results.samples("demo", model=["beta", "gamma"])
    assert set(two.model) == {"beta", "gamma"} and len(two) == 2 * len(alpha)


def test_questions(at_project: Path) -> None:
    questions = results.questions("demo")
    assert list(questions.id) == [q.id for q in synth.questions()]
    assert {"text", "language", "categories", "domain", "reference_answers"} <= set(
        questions.columns
    )


def test_a_model_without_judge_rows_names_its_file(at_project: Path) -> None:
    with pytest.raises(InputError, match=r"judge/smoke/delta\.jsonl: no judge output"):
        results.samples("demo", model="delta")


def test_a_project_not_yet_aggregated_says_what_to_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = synth.make_project(tmp_path / "fresh")
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    with pytest.raises(ConfigError, match="aggregate stage"):
        results.leaderboard("demo")
    with pytest.raises(InputError, match="no metrics file"):
        results.metrics("demo")
    assert len(results.samples("demo")) > 0  # the judge rows are there already
