"""A plugin judge's rows: one per metric it declares, and a failure is an error row with its
reason, never a score (parakh.judging.reference.judge_scores)."""

from __future__ import annotations

from collections.abc import Mapping

from parakh.judging.reference import judge_scores
from parakh.metrics.specs import Judge, MetricSpec
from parakh.schema import Generation, Question

QUESTION = Question(id="q1", text="Can I drive?", language="en", reference_answers=["No"])
SPECS = (
    MetricSpec("polite", "higher", 0.0, 1.0, "mean"),
    MetricSpec("words", "lower", 0.0, 10.0, "mean"),
)


def _judge(scores: Mapping[str, float] | Exception) -> Judge:
    def fn(question: Question, generation: Generation) -> Mapping[str, float]:
        if isinstance(scores, Exception):
            raise scores
        return scores

    return Judge(name="style", metrics=SPECS, fn=fn)


def _answer(response: str | None = "Not for a week, please.") -> Generation:
    if response is None:
        return Generation(question_id="q1", model="m", status="error", error="timed out")
    return Generation(question_id="q1", model="m", status="ok", response=response)


def _rows(judge: Judge, generation: Generation) -> list[tuple[str, str, float | None, str | None]]:
    return [
        (s.metric, s.status, s.score, s.reason) for s in judge_scores(judge, QUESTION, generation)
    ]


def test_each_declared_metric_gets_its_row() -> None:
    rows = _rows(_judge({"polite": 1.0, "words": 5.0, "extra": 3.0}), _answer())
    assert rows == [("polite", "ok", 1.0, None), ("words", "ok", 5.0, None)]


def test_a_missing_or_off_scale_score_is_an_error_row() -> None:
    rows = _rows(_judge({"words": 11.0}), _answer())
    assert rows == [
        ("polite", "error", None, "judge 'style' gave polite = None"),
        ("words", "error", None, "judge 'style' gave words = 11.0"),
    ]


def test_a_value_error_and_a_failed_answer_are_error_rows_with_the_reason() -> None:
    rows = _rows(_judge(ValueError("no sentence to read")), _answer())
    assert {r[1:] for r in rows} == {("error", None, "judge 'style': no sentence to read")}
    rows = _rows(_judge({"polite": 1.0, "words": 1.0}), _answer(None))
    assert {r[1:] for r in rows} == {("error", None, "no response to score: timed out")}
