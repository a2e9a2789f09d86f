"""The metrics a judge config writes a row of for every question, as coverage expects them."""

from __future__ import annotations

from parakh.config import compose
from parakh.metrics.registry import judged_metrics, metric_slot


def test_reference_metrics_then_rubric_criteria_with_aliases_resolved() -> None:
    judge = compose(["judge=smoke"]).judge
    assert judged_metrics(judge) == [
        "token_f1",
        "rouge_l",
        "chrf",
        "language_match",
        "factual_correctness",
        "semantic_similarity",
        "coherence",
        "conciseness",
    ]
    aliased = judge.model_copy(update={"reference_metrics": ["f1", "token_f1"], "rubrics": []})
    assert judged_metrics(aliased) == ["token_f1"]


def test_a_multi_criterion_rubric_gives_each_criterion_split_or_not() -> None:
    judge = compose(["judge=indicquest"]).judge
    split = judge.model_copy(update={"split_criteria": True})
    rubric_part = judged_metrics(judge)[len(judge.reference_metrics) :]
    assert len(rubric_part) > 1 and judged_metrics(split) == judged_metrics(judge)


def test_nomiracl_is_one_slot_whichever_subset_fills_it() -> None:
    metrics = judged_metrics(compose(["judge=nomiracl"]).judge)
    assert metrics == ["nomiracl"]
    for row_metric in ("nomiracl_hallucination", "nomiracl_error", "nomiracl"):
        assert metric_slot(row_metric, metrics) == "nomiracl"
    assert metric_slot("nomiracl_error", ["chrf"]) == "nomiracl_error"  # not judged: foreign
    assert metric_slot("chrf", metrics) == "chrf"
