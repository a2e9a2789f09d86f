"""recall@k, MRR and nDCG@k on hand-computed cases, and their per-language means."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.retrieval.metrics import (
    RankedQuery,
    hit_at_k,
    ndcg_at_k,
    recall_at_k,
    reciprocal_rank,
    retrieval_metrics,
)

CASES = json.loads((Path(__file__).parent / "cases" / "retrieval_metrics.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_metric_cases(case: dict) -> None:
    ranked, gold = case["ranked"], frozenset(case["gold"])
    assert recall_at_k(ranked, gold, 1) == pytest.approx(case["recall@1"])
    assert recall_at_k(ranked, gold, 3) == pytest.approx(case["recall@3"])
    assert reciprocal_rank(ranked, gold) == pytest.approx(case["mrr"], abs=1e-5)
    assert ndcg_at_k(ranked, gold, 3) == pytest.approx(case["ndcg@3"], abs=1e-5)
    assert hit_at_k(ranked, gold, 1) == float(case["recall@1"] > 0)
    assert hit_at_k(ranked, gold, 3) == float(case["recall@3"] > 0)


def test_empty_gold_is_an_error_not_a_zero() -> None:
    with pytest.raises(ValueError):
        recall_at_k(["a"], frozenset(), 1)
    with pytest.raises(ValueError):
        ndcg_at_k(["a"], frozenset(), 1)


def test_means_per_language_and_all() -> None:
    cases = [
        RankedQuery("q1", "hi", ("a", "b"), frozenset({"a"})),
        RankedQuery("q2", "hi", ("b", "a"), frozenset({"a"})),
        RankedQuery("q3", "en", ("c",), frozenset({"a"})),
    ]
    m = retrieval_metrics(cases, ks=(1, 3), depth=10)
    assert m["recall@1"] == {"all": 0.3333, "en": 0.0, "hi": 0.5}
    assert m["recall@3"] == {"all": 0.6667, "en": 0.0, "hi": 1.0}
    assert m["mrr@10"] == {"all": 0.5, "en": 0.0, "hi": 0.75}
    assert m["n"] == {"all": 3.0, "en": 1.0, "hi": 2.0}
    assert m["hit@1"] == m["recall@1"]  # one gold document each: the same figure
    assert set(m) == {"recall@1", "recall@3", "hit@1", "hit@3", "mrr@10", "ndcg@1", "ndcg@3", "n"}


def test_depth_cuts_the_ranking_for_mrr() -> None:
    case = RankedQuery("q", "en", ("x", "y", "a"), frozenset({"a"}))
    assert retrieval_metrics([case], ks=(1,), depth=2)["mrr@2"]["all"] == 0.0
    assert retrieval_metrics([case], ks=(1,), depth=3)["mrr@3"]["all"] == pytest.approx(0.3333)
