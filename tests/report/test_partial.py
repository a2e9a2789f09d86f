"""Aggregate's coverage check (parakh.report.partial): what counts as an expected judge row, on
the demo's committed rows, the synthetic project, NoMIRACL rows and a run without a questions
file; and what a partial run carries (the marker, the MLflow tag)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import REPO
from tests.report import synthetic_project as synth

from parakh.config import compose
from parakh.errors import InputError
from parakh.report.aggregate_result import compute
from parakh.report.files import ReportFiles
from parakh.report.inputs import AggregateInputs
from parakh.report.partial import judge_coverage, require_coverage
from parakh.schema import Judgment, Question
from parakh.stage_outputs import Layout
from parakh.stages import aggregate

SYNTHETIC_JUDGE = [
    "judge.rubrics=[factual_correctness,coherence]",
    "judge.reference_metrics=[token_f1,chrf]",
]


def _synthetic(judgments: dict[str, list[Judgment]] | None = None) -> AggregateInputs:
    return AggregateInputs(
        judge="smoke",
        models=synth.MODELS,
        judgments=judgments or {m: synth.judgments(m) for m in synth.MODELS},
        questions=synth.questions(),
    )


@pytest.mark.skipif(
    not (REPO / "data/processed/demo/judge/smoke/smollm2.jsonl").is_file(),
    reason="the demo's judge rows are not checked out (dvc pull)",
)
def test_the_demos_committed_judge_rows_cover_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rubric rows outside the judge's sample are `skipped` rows, so all 1280 are there."""
    monkeypatch.setenv("PARAKH_ROOT", str(REPO))
    cfg = compose(["dataset=demo", "judge=smoke"])
    models = aggregate.models_to_aggregate(cfg)
    inputs = aggregate.load_inputs(cfg, Layout.of(cfg), models)
    coverage = judge_coverage(cfg, inputs)
    assert coverage.complete and coverage.expected == 80 * len(models) * 8
    assert require_coverage(cfg, inputs) is None


def test_unscored_rows_cover_their_keys() -> None:
    """invalid, error and skipped rows are rows: the synthetic project has each, and is whole."""
    inputs = _synthetic()
    assert {r.status for r in inputs.rows} == {"ok", "invalid", "error", "skipped"}
    assert require_coverage(compose(SYNTHETIC_JUDGE), inputs) is None


def test_missing_rows_are_an_error_or_with_allow_partial_a_marked_run() -> None:
    rows = {m: synth.judgments(m) for m in synth.MODELS}
    rows["gamma"] = [r for r in rows["gamma"] if r.language != "hi"]  # 8 questions x 4 metrics
    inputs = _synthetic(rows)
    with pytest.raises(InputError, match=r"256 of 288 rows.*gamma: 32 of 96 missing"):
        require_coverage(compose(SYNTHETIC_JUDGE), inputs)
    cfg = compose([*SYNTHETIC_JUDGE, "aggregate.allow_partial=true"])
    partial = require_coverage(cfg, inputs)
    assert partial is not None and partial.missing_by_model == {"gamma": 32}
    assert partial.marker() == {
        "rows": 256,
        "expected_rows": 288,
        "missing_rows": 32,
        "missing_by_model": {"gamma": 32},
    }
    assert partial.text.startswith("Partial run: 256 of 288 (question, model, metric) judge rows")
    result = compute(cfg, inputs, partial=partial)
    assert result.document()["partial"] == partial.marker()
    assert "partial" not in compute(cfg, _synthetic()).document()


def test_without_a_questions_file_every_question_some_model_has_is_expected() -> None:
    rows = {m: synth.judgments(m) for m in synth.MODELS}
    rows["beta"] = [r for r in rows["beta"] if r.question_id != "q05"]
    inputs = AggregateInputs(judge="smoke", models=synth.MODELS, judgments=rows)
    coverage = judge_coverage(compose(SYNTHETIC_JUDGE), inputs)
    assert coverage.expected == 288 and coverage.missing[0] == ("q05", "beta", "token_f1")


def _nomiracl_row(question: str, metric: str) -> Judgment:
    return Judgment(
        question_id=question, model="m", judge="nomiracl", metric=metric, language="en",
        status="ok", score=0.0,
    )  # fmt: skip


def test_nomiracl_rows_fill_one_slot_per_question_whatever_the_subset() -> None:
    cfg = compose(["judge=nomiracl"])
    questions = [Question(id=f"n{i}", text="?", language="en") for i in range(3)]
    rows = [
        _nomiracl_row("n0", "nomiracl_hallucination"),
        _nomiracl_row("n1", "nomiracl_error"),
        _nomiracl_row("n2", "nomiracl"),  # a question without a subset: an error row
    ]
    inputs = AggregateInputs("nomiracl", ["m"], {"m": rows}, questions=questions)
    assert require_coverage(cfg, inputs) is None
    twice = AggregateInputs(
        "nomiracl", ["m"], {"m": [*rows, _nomiracl_row("n0", "nomiracl_error")]}, questions
    )
    with pytest.raises(InputError, match=r"\(n0, m, nomiracl\) has 2 rows \(lines 1 and 4\)"):
        require_coverage(cfg, twice)


def test_a_partial_run_is_tagged_on_every_mlflow_run(tmp_path: Path) -> None:
    from parakh.tracking.sweep import build_sweep

    rows = {m: synth.judgments(m) for m in synth.MODELS}
    rows["alpha"] = rows["alpha"][:-4]
    cfg = compose([*SYNTHETIC_JUDGE, "aggregate.allow_partial=true"])
    inputs = _synthetic(rows)
    layout = Layout(processed=tmp_path / "processed" / "demo", reports=tmp_path / "reports")
    files = ReportFiles(layout.reports)
    for partial, tag in ((require_coverage(cfg, inputs), "284 of 288 rows"), (None, None)):
        result = compute(cfg, inputs, partial=partial)
        sweep = build_sweep(cfg, result, inputs, layout, files, commit="c", scratch=tmp_path)
        runs = [sweep.parent, *sweep.children.values()]
        assert [run.tags.get("partial_run") for run in runs] == [tag] * 4
        assert sweep.parent.params["aggregate"].get("allow_partial") is True
