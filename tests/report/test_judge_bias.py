"""Bias checks: each metric's Spearman with answer length, self-judged share, jurors."""

from __future__ import annotations

import pytest
from scipy import stats as scipy_stats

from parakh.report.judge_bias import bias_section, judge_bias
from parakh.report.row_files import JudgeFile
from parakh.schema import Generation, HumanGrade, Judgment

ANSWERS = {
    "q1": "short",
    "q2": "a longer answer",
    "q3": "the longest answer of them all",
    "q4": "mid size",
}
SCORES = {"q1": 0.0, "q2": 1.0, "q3": 2.0, "q4": 2.0}
VOTES = {
    "q1": {"big": 0.0, "small": 2.0},
    "q2": {"big": 1.0, "small": 1.0},
    "q3": {"big": 2.0, "small": None},
    "q4": {"big": 2.0, "small": 0.0},
}


def _rows(model: str) -> list[Judgment]:
    return [
        Judgment(
            question_id=q,
            model=model,
            judge="jury",
            metric="coherence",
            language="en",
            status="ok",
            score=SCORES[q],
            scale_max=2.0,
            votes=VOTES[q],
            flags=["self_judged"] if q == "q1" else [],
        )
        for q in ANSWERS
    ]


def test_length_correlation_self_judged_share_and_jurors() -> None:
    generations = {
        "m": [
            Generation(question_id=q, model="m", status="ok", response=t)
            for q, t in ANSWERS.items()
        ]
    }
    grades = [
        HumanGrade(question_id=q, model="m", metric="coherence", score=g)
        for q, g in (("q1", 0), ("q2", 1), ("q3", 2), ("q4", 1))
    ]
    bias = judge_bias({"m": JudgeFile.of_rows(_rows("m"))}, generations, grades)
    (metric,) = bias.metrics
    lengths = [len(ANSWERS[q]) for q in ANSWERS]
    expected = scipy_stats.spearmanr(list(SCORES.values()), lengths).statistic
    assert metric.length_spearman == pytest.approx(expected, abs=1e-9)
    assert (metric.rows, metric.self_judged, metric.self_judged_share) == (4, 1, 0.25)
    jurors = {j.juror: j for j in bias.jurors}
    assert set(jurors) == {"big", "small"} and jurors["small"].votes == 3
    big_votes = [VOTES[q]["big"] for q in ANSWERS]
    assert jurors["big"].spearman_with_jury == pytest.approx(
        scipy_stats.spearmanr(big_votes, list(SCORES.values())).statistic, abs=1e-9
    )
    assert jurors["big"].spearman_with_humans == pytest.approx(
        scipy_stats.spearmanr(big_votes, [0, 1, 2, 1]).statistic, abs=1e-9
    )
    page = bias_section(bias)
    assert 'id="bias-table"' in page and 'id="jurors"' in page and "1 (25.0%)" in page


def test_without_answers_or_jury_the_section_says_so() -> None:
    rows = [r.model_copy(update={"votes": {}}) for r in _rows("m")]
    bias = judge_bias({"m": JudgeFile.of_rows(rows)}, {})
    assert bias.metrics[0].length_spearman is None and not bias.jurors
    page = bias_section(bias)
    assert "No answer files were read" in page and 'id="jurors"' not in page
