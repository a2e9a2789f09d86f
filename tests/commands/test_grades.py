"""`parakh grades pull` on a real MLflow store (SQLite in tmp_path): two judged answers logged as
Parakh's `tracking.genai=true` traces, human feedback added with `mlflow.log_feedback` beside an
LLM judge's and a feedback that names no metric; exactly the human grades come back, in a file
aggregate's agreement accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from parakh.io import read_jsonl
from parakh.report.agreement import check_grades_file, judge_human_agreement
from parakh.schema import HumanGrade, Judgment
from parakh.tracking.client import experiment_id, open_client
from parakh.tracking.genai import GenaiLog, log_genai
from parakh.tracking.samples import JudgedAnswer
from tests.commands.cli import run_cli

PULL = ["grades", "pull", "--tracking-uri"]
ANSWERS = [("alpha", "q01", "hi"), ("beta", "q02", "ta")]


def _rows(model: str, question: str, language: str) -> tuple[Judgment, ...]:
    base = {"question_id": question, "model": model, "judge": "smoke", "language": language}
    return (
        Judgment(**base, metric="coherence", status="ok", score=1, scale_max=2),
        Judgment(**base, metric="chrf", status="ok", score=40.0, scale_max=100),
    )


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, dict[str, str]]:
    """A SQLite store holding the two answers' traces; its URI and {model: trace id}."""
    import mlflow.tracking._tracking_service.utils as tracking_utils

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    monkeypatch.setattr(tracking_utils, "_tracking_uri", uri)  # what mlflow.log_feedback uses
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    client = open_client(uri)
    experiment = experiment_id(client, "parakh")
    runs: dict[tuple[str, str], str] = {}
    for model, _, language in ANSWERS:
        for level in ("all", language):
            runs[(model, level)] = client.create_run(experiment).info.run_id
    answers = {
        m: [JudgedAnswer(m, q, lang, f"{q}?", None, f"{m} says", (), _rows(m, q, lang))]
        for m, q, lang in ANSWERS
    }
    genai = GenaiLog(
        dataset=None,
        answers=answers,
        judge_sources={m: "judge-llm" for m in answers},
        reference_metrics={"chrf"},
        tags={"dataset": "demo", "judge": "smoke"},
    )
    assert log_genai(uri, experiment, genai, runs, "key").startswith("2 traces")
    traces = {t.info.tags["model"]: t.info.trace_id for t in client.search_traces([experiment])}
    return uri, traces


def _feedback(trace: str, name: str, value: Any, source: str, who: str) -> Any:
    import mlflow
    from mlflow.entities import AssessmentSource

    source_ = AssessmentSource(source_type=source, source_id=who)
    return mlflow.log_feedback(trace_id=trace, name=name, value=value, source=source_)


def test_pull_writes_exactly_the_human_grades_and_aggregate_accepts_them(
    store: tuple[str, dict[str, str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import mlflow
    from mlflow.entities import AssessmentSource

    uri, trace = store
    _feedback(trace["alpha"], "coherence", 0, "HUMAN", "asha")
    _feedback(trace["alpha"], "coherence", 2, "HUMAN", "asha")  # later: this one counts
    _feedback(trace["alpha"], "coherence", 1, "HUMAN", "ravi")
    _feedback(trace["alpha"], "coherence", 0, "LLM_JUDGE", "gpt-judge")  # never a human grade
    _feedback(trace["alpha"], "helpful", 1, "HUMAN", "asha")  # names no metric
    first = _feedback(trace["beta"], "coherence", 2, "HUMAN", "ravi")
    mlflow.override_feedback(  # the overridden feedback is no longer valid
        trace_id=trace["beta"],
        assessment_id=first.assessment_id,
        value=1,
        source=AssessmentSource(source_type="HUMAN", source_id="ravi"),
    )
    _feedback(trace["beta"], "chrf", 55.5, "HUMAN", "asha")  # a metric the judge scored
    out = tmp_path / "grades.jsonl"

    code, stdout, stderr = run_cli([*PULL, uri, "--out", str(out)], capsys)

    assert code == 0, stderr
    assert "4 grades from 2 traces and 2 raters" in stdout
    grades = read_jsonl(out, HumanGrade)
    expected = [
        ("alpha", "q01", "hi", "coherence", 2.0, "asha"),
        ("alpha", "q01", "hi", "coherence", 1.0, "ravi"),
        ("beta", "q02", "ta", "chrf", 55.5, "asha"),
        ("beta", "q02", "ta", "coherence", 1.0, "ravi"),
    ]
    assert [(g.model, g.question_id, g.language, g.metric, g.score, g.rater) for g in grades] == (
        expected
    )
    assert all(g.scale_min is None and g.scale_max is None for g in grades)  # the judge's scale
    rows = [r for m, q, lang in ANSWERS for r in _rows(m, q, lang)]
    check_grades_file(out, grades, list(range(1, len(grades) + 1)), rows, {"q01", "q02"}, {})
    agreement = {a.metric: a.human_grades for a in judge_human_agreement(rows, grades)}
    assert agreement == {"chrf": 1, "coherence": 3}


def test_feedback_off_the_scale_is_skipped_and_counted_with_its_reason(
    store: tuple[str, dict[str, str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    uri, trace = store
    _feedback(trace["alpha"], "coherence", 3, "HUMAN", "asha")
    _feedback(trace["alpha"], "coherence", 1.5, "HUMAN", "ravi")  # coherence scores 0, 1 or 2
    _feedback(trace["beta"], "coherence", "good", "HUMAN", "asha")
    _feedback(trace["beta"], "coherence", True, "HUMAN", "ravi")
    out = tmp_path / "grades.jsonl"

    code, stdout, stderr = run_cli([*PULL, uri, "--out", str(out)], capsys)

    assert code == 0, stderr
    assert stdout.startswith("0 grades from 0 traces and 0 raters (2 traces read)")
    assert out.read_text() == ""
    example = f"(e.g. trace {trace['alpha']}, coherence by asha)"
    assert f"skipped 1: value outside the metric's 0..2 scale {example}" in stderr
    assert "skipped 1: value not a whole number on the metric's 0..2 scale" in stderr
    assert "skipped 2: value is not a number" in stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dataset", "other"], "no traces of dataset 'other' in experiment 'parakh'"),
        (["--experiment", "parkh"], "Unknown experiment 'parkh'. Did you mean 'parakh'?"),
        (["--run", "nope"], "no run 'nope' at sqlite:"),
    ],
)
def test_pull_says_what_to_do_when_it_finds_nothing(
    store: tuple[str, dict[str, str]],
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    code, _, stderr = run_cli([*PULL, store[0], *args], capsys)

    assert code == 2
    assert message in stderr
    if "no traces" in message:
        assert "tracking.genai=true" in stderr
