"""Judge-human agreement from judge rows and human grades: pairing, declared mappings,
repeated ratings, languages, rankings, and refusals to compare two scales silently."""

from __future__ import annotations

import pytest

from parakh.errors import ConfigError
from parakh.report.agreement import judge_human_agreement
from parakh.schema import HumanGrade, Judgment
from parakh.stats import agreement as stats
from parakh.stats.agreement import ScaleMapping


def _judge(qid: str, model: str, score: float | None, language: str = "en", status: str = "ok"):
    return Judgment(
        question_id=qid,
        model=model,
        judge="j",
        metric="factual_correctness",
        language=language,
        status=status,
        score=score,
        scale_max=2.0,
    )


def _human(qid: str, model: str, score: float, rater: str | None = None, **extra):
    return HumanGrade(
        question_id=qid,
        model=model,
        metric="factual_correctness",
        score=score,
        rater=rater,
        **extra,
    )


JUDGE = [
    _judge("q1", "a", 2),
    _judge("q2", "a", 1, "hi"),
    _judge("q3", "a", 0),
    _judge("q1", "b", 1),
    _judge("q2", "b", 0, "hi"),
    _judge("q3", "b", None, status="invalid"),
]


def test_same_scale_pairs_and_statistics() -> None:
    human = [_human("q1", "a", 2), _human("q2", "a", 2), _human("q3", "a", 0), _human("q1", "b", 1)]
    (result,) = judge_human_agreement(JUDGE, human)
    s = result.overall
    assert (s.n_items, s.n_pairs) == (4, 4)
    judge, grades = [2, 1, 0, 1], [2, 2, 0, 1]
    assert s.percent_agreement == pytest.approx(75.0)
    assert s.cohen_kappa_linear == pytest.approx(
        stats.cohen_kappa(judge, grades, labels=[0, 1, 2], weights="linear"), abs=1e-6
    )
    assert s.spearman == pytest.approx(stats.spearman(judge, grades), abs=1e-6)
    assert set(result.by_language) == {"en", "hi"} and result.by_language["hi"].n_pairs == 1
    assert result.ranking is not None and result.ranking.n_models == 2
    # per model, HEALTH-PARIKSHA's view: a agrees on q1 and q3 of its 3 pairs, b on its 1
    assert set(result.by_model) == {"a", "b"}
    assert result.by_model["a"].percent_agreement == pytest.approx(200 / 3, abs=1e-4)
    assert (result.by_model["b"].n_pairs, result.by_model["b"].percent_agreement) == (1, 100.0)


def test_grades_on_another_scale_need_a_declared_mapping() -> None:
    human = [_human("q1", "a", 4, scale_min=1, scale_max=4), _human("q3", "a", 1)]
    with pytest.raises(ConfigError, match="declare a mapping in aggregate.agreement.mappings"):
        judge_human_agreement(JUDGE, human)
    undeclared = [_human("q1", "a", 3)]
    with pytest.raises(ConfigError, match="outside the judge's 0..2 scale"):
        judge_human_agreement(JUDGE, undeclared)
    mapping = ScaleMapping.model_validate({"table": {1: 0, 2: 0, 3: 1, 4: 2}})
    (result,) = judge_human_agreement(JUDGE, human, {"factual_correctness": mapping})
    assert result.overall.percent_agreement == 100.0
    assert "human grades mapped by table 1->0, 2->0, 3->1, 4->2" in result.mapping


def test_an_unlisted_grade_is_an_error_naming_the_metric() -> None:
    mapping = ScaleMapping.model_validate({"table": {1: 0, 2: 1}})
    with pytest.raises(ConfigError, match="factual_correctness: grade 4"):
        judge_human_agreement(JUDGE, [_human("q1", "a", 4)], {"factual_correctness": mapping})


def test_repeated_ratings_are_two_pairs_and_two_alpha_raters() -> None:
    human = [_human("q1", "a", 2), _human("q1", "a", 1), _human("q3", "a", 0, rater="r2")]
    (result,) = judge_human_agreement(JUDGE, human)
    assert (result.overall.n_items, result.overall.n_pairs) == (2, 3)
    assert result.overall.percent_agreement == pytest.approx(200 / 3, abs=1e-4)


def test_unpaired_grades_are_counted_by_reason() -> None:
    human = [_human("q3", "b", 1), _human("q9", "a", 1), _human("q1", "a", 2)]
    (result,) = judge_human_agreement(JUDGE, human)
    assert result.unpaired_human_grades == {"judge invalid": 1, "no judge row": 1}
    assert result.human_grades == 3 and result.overall.n_pairs == 1


def test_continuous_judge_scores_mapped_onto_grades() -> None:
    rows = [
        _judge(f"q{i}", "a", None).model_copy(
            update={"metric": "token_f1", "scale_max": 1.0, "status": "ok", "score": s}
        )
        for i, s in enumerate([0.1, 0.3, 0.6, 0.9])
    ]
    human = [
        HumanGrade(question_id=f"q{i}", model="a", metric="token_f1", score=g)
        for i, g in enumerate([1, 2, 3, 4])
    ]
    bins = ScaleMapping(applies_to="judge", thresholds=[0.25, 0.5, 0.75], labels=[1, 2, 3, 4])
    (result,) = judge_human_agreement(rows, human, {"token_f1": bins})
    assert result.overall.percent_agreement == 100.0 and result.overall.kendall_tau == 1.0


@pytest.mark.parametrize(
    ("metric", "scale_max", "judged", "graded"),
    [
        ("medical_safety", 2.0, [2, 1, 0, 2], [2, 1, 1, 2]),
        ("grounded_sentences", 1.0, [1.0, 0.5, 0.0, 0.25], [1.0, 0.75, 0.0, 0.25]),
        ("context_hallucination", 1.0, [1, 0, 0, 1], [1, 0, 1, 1]),
    ],
)
def test_the_health_metrics_pair_with_grades_like_any_other(
    metric: str, scale_max: float, judged: list[float], graded: list[float]
) -> None:
    """Issue #28: a doctor's grades named after a new metric get its judge-human agreement."""
    keys = [("q1", "a"), ("q2", "a"), ("q1", "b"), ("q2", "b")]
    rows = [
        Judgment(question_id=q, model=m, judge="j", metric=metric, language="hi",
                 status="ok", score=s, scale_max=scale_max)
        for (q, m), s in zip(keys, judged, strict=True)
    ]  # fmt: skip
    grades = [
        HumanGrade(question_id=q, model=m, metric=metric, score=s)
        for (q, m), s in zip(keys, graded, strict=True)
    ]
    (result,) = judge_human_agreement(rows, grades, unmapped="ranks")
    assert result.metric == metric and result.overall.n_pairs == 4
    assert result.overall.spearman == pytest.approx(stats.spearman(judged, graded), abs=1e-6)
    assert set(result.by_language) == {"hi"}
