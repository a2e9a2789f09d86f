"""No judge model reads an answer that is not there: a failed generation or an empty (blank)
answer gets rubric rows with status `error` saying why, counted in the judge summary, and costs
no judge call. Reference metrics score an empty `ok` answer (it is the model's real answer) and
never score a failed one."""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.backends.scripted import ScriptedBackend
from parakh.config import compose
from parakh.config.judge import JuryConfig
from parakh.config.model import ScriptedModel
from parakh.config.stage_config import ParakhConfig
from parakh.judging.ballot_rows import rubric_judgments
from parakh.judging.judge_selection import Panel
from parakh.judging.llm_judge import EMPTY_ANSWER
from parakh.judging.summary import judge_summary
from parakh.metrics.rubric import load_rubric
from parakh.schema import Generation, Judgment, Question
from tests.judging.judge_files import judged

OK = '{"Score": 2, "Justification": "fine"}'

QUESTIONS = [
    Question(
        id=f"q{i}", text="When can I bathe?", language="en", reference_answers=["After a week."]
    )
    for i in range(1, 5)
]
GENERATIONS = [
    Generation(question_id="q1", model="m", status="ok", response="After a week."),
    Generation(question_id="q2", model="m", status="ok", response=""),
    Generation(question_id="q3", model="m", status="ok", response=" \n\t "),
    Generation(
        question_id="q4",
        model="m",
        status="error",
        error="closed-book: the extractive baseline needs passages and got none",
    ),
]


def _cfg(reference_metrics: list[str]) -> ParakhConfig:
    cfg = compose(["judge=smoke", "judge.sample_per_language=null"])
    scripted = ScriptedModel(name="judge", backend="scripted", default_response=OK)
    updates: dict = {
        "model": scripted,
        "rubrics": ["coherence"],
        "reference_metrics": reference_metrics,
    }
    return cfg.model_copy(update={"judge": cfg.judge.model_copy(update=updates)})


def _judge(cfg: ParakhConfig, tmp_path: Path) -> tuple[list[Judgment], list[ScriptedBackend]]:
    backends: list[ScriptedBackend] = []

    def factory(model_cfg):  # type: ignore[no-untyped-def]
        backends.append(ScriptedBackend(model_cfg))
        return backends[-1]

    rows = judged(cfg, QUESTIONS, GENERATIONS, [], tmp_path / "p.jsonl", backend_factory=factory)
    return rows, backends


def test_only_a_real_answer_reaches_the_judge_model(tmp_path: Path) -> None:
    rows, backends = _judge(_cfg([]), tmp_path)
    assert sum(b.calls for b in backends) == 1  # q1 only
    by_question = {r.question_id: r for r in rows}
    assert by_question["q1"].status == "ok" and by_question["q1"].score == 2
    for qid in ("q2", "q3"):
        row = by_question[qid]
        assert row.status == "error" and row.score is None and row.reason == EMPTY_ANSWER
        assert row.raw_output is None  # no judge output: none was asked for
    failed = by_question["q4"]
    assert failed.status == "error" and failed.score is None
    assert failed.reason == (
        "generation error: closed-book: the extractive baseline needs passages and got none"
    )


def test_the_summary_counts_empty_answers_and_error_kinds(tmp_path: Path) -> None:
    rows, _ = _judge(_cfg([]), tmp_path)
    summary = judge_summary(rows)
    assert summary["status"] == {"ok": 1, "error": 3}
    assert summary["empty_answers"] == {"responses": 2, "question_ids": ["q2", "q3"]}
    assert summary["error_reasons"] == {"empty answer": 2, "generation error": 1}


def test_a_jury_calls_no_juror_on_an_empty_answer() -> None:
    panel = Panel(jurors=["a", "b"], jury=JuryConfig(models=["a", "b"]))
    coherence = load_rubric("coherence")
    for generation in GENERATIONS[1:]:
        question = QUESTIONS[int(generation.question_id[1:]) - 1]
        (row,) = rubric_judgments("j", coherence, question, generation, panel, ballots={})
        assert row.status == "error" and row.votes == {}  # no juror was asked
        assert row.reason == EMPTY_ANSWER or row.reason.startswith("generation error: ")


@pytest.mark.parametrize("metric", ["token_f1", "rouge_l", "chrf"])
def test_reference_metrics_score_an_empty_answer_and_never_a_failed_one(
    tmp_path: Path, metric: str
) -> None:
    cfg = _cfg([metric])
    cfg = cfg.model_copy(update={"judge": cfg.judge.model_copy(update={"rubrics": []})})
    rows, backends = _judge(cfg, tmp_path)
    assert not backends  # no rubric, no judge model
    by_question = {r.question_id: r for r in rows}
    best = by_question["q1"]  # the reference itself: the top of the scale
    assert best.status == "ok" and best.score == pytest.approx(best.scale_max)
    for qid in ("q2", "q3"):  # the model's real, empty answer: a real zero
        assert by_question[qid].status == "ok" and by_question[qid].score == 0.0
    failed = by_question["q4"]
    assert failed.status == "error" and failed.score is None
    assert failed.reason is not None and "closed-book" in failed.reason
