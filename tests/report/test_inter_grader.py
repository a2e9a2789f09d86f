"""Inter-grader agreement on hand-computed cases, and beside judge-human agreement."""

from __future__ import annotations

import pytest

from parakh.report.agreement import agreement_metrics, judge_human_agreement
from parakh.report.inter_grader import inter_grader_agreement
from parakh.report.shared_statistics import Settings
from parakh.schema import HumanGrade, Judgment
from parakh.tracking.metric_names import sweep_metrics


def _grades(rater: str, scores: list[float | None], metric: str = "coherence") -> list[HumanGrade]:
    return [
        HumanGrade(question_id=f"q{i}", model="m", metric=metric, score=s, rater=rater)
        for i, s in enumerate(scores)
        if s is not None
    ]


def test_two_graders_by_hand() -> None:
    """A: 0 1 2 2, B: 0 1 2 1. Coincidences o = [[2,0,0],[0,2,1],[0,1,2]], n_v = (2,3,3),
    n = 8: agreement 6/8 = 75%. Ordinal distances d01 = (5 - 2.5)^2 = 6.25, d12 = (6 - 3)^2 =
    9, d02 = (8 - 2.5)^2 = 30.25; observed 2 * 1 * 9 = 18; expected 2 * (6/7 * 6.25 + 6/7 *
    30.25 + 9/7 * 9) = 600/7; alpha = 1 - 18 * 7 / 600 = 0.79."""
    found = inter_grader_agreement(_grades("a", [0, 1, 2, 2]) + _grades("b", [0, 1, 2, 1]))
    assert found is not None
    assert found.graders == ["a", "b"] and (found.n_items, found.n_grades) == (4, 8)
    assert found.percent_agreement == pytest.approx(75.0)
    assert found.krippendorff_alpha_ordinal == pytest.approx(0.79)
    assert found.intervals == {}


def test_answers_graded_once_drop_out_and_a_third_grader_joins() -> None:
    """C grades only q0 (as A and B do) and q4, which nobody else graded: q4 drops out. Each
    grade counts once: q0's three agree (3), q1 and q2 two each (4), q3's two do not: 7/9."""
    grades = _grades("a", [0, 1, 2, 2]) + _grades("b", [0, 1, 2, 1])
    grades += _grades("c", [0, None, None, None, 2])
    found = inter_grader_agreement(grades, Settings(resamples=200), key=("grades", "coherence"))
    assert found is not None and (found.n_items, found.n_grades) == (4, 9)
    assert found.percent_agreement == pytest.approx(100 * 7 / 9)
    low, high = found.intervals["percent_agreement"]
    assert 0 <= low <= high <= 100
    again = inter_grader_agreement(grades, Settings(resamples=200), key=("grades", "coherence"))
    assert again == found  # seeded


def test_one_grader_or_no_answer_graded_twice_is_none() -> None:
    assert inter_grader_agreement(_grades("a", [0, 1, 2])) is None
    assert inter_grader_agreement(_grades("a", [0, 1]) + _grades("b", [None, None, 2])) is None


def test_beside_judge_human_agreement_and_in_the_metrics() -> None:
    judged = [
        Judgment(
            question_id=f"q{i}",
            model="m",
            judge="j",
            metric="coherence",
            language="en",
            status="ok",
            score=s,
            scale_max=2.0,
        )
        for i, s in enumerate([0, 1, 2, 2])
    ]
    grades = _grades("a", [0, 1, 2, 2]) + _grades("b", [0, 1, 2, 1])
    (result,) = judge_human_agreement(judged, grades)
    assert result.inter_grader is not None and "inter_grader" in result.to_dict()
    figures = agreement_metrics([result])["coherence"]
    assert figures["inter_grader_krippendorff_alpha_ordinal"] == pytest.approx(0.79)
    mlflow = sweep_metrics([], [result.to_dict()])
    assert mlflow["agreement.coherence.inter_grader.krippendorff_alpha_ordinal"] == pytest.approx(
        0.79
    )
    assert mlflow["agreement.coherence.inter_grader.n_items"] == 4
    assert mlflow["agreement.coherence.inter_grader.n_grades"] == 8
    (alone,) = judge_human_agreement(judged, _grades("a", [0, 1, 2, 2]))
    assert "inter_grader" not in alone.to_dict()  # one grader: the document as before
