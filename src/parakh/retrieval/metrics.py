"""Retrieval metrics over ranked document ids with a known set of relevant (gold) ids.

Per question: recall@k (the share of its gold documents in the top k), hit@k (1 if any gold
document is in the top k: the top-k accuracy of QA-retrieval papers; equal to recall@k when a
question has one gold document, as in XQuAD), MRR@depth (1 / rank of the first gold document,
0 if none in the ranking) and nDCG@k with binary gains. Corpus figures
are means per language and over all questions ("all"), with the number of questions ("n").
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass
from typing import Any


def recall_at_k(ranked: Sequence[str], gold: Set[str], k: int) -> float:
    if not gold:
        raise ValueError("recall needs at least one gold document")
    return sum(1 for d in set(ranked[:k]) if d in gold) / len(gold)


def hit_at_k(ranked: Sequence[str], gold: Set[str], k: int) -> float:
    return 1.0 if any(d in gold for d in ranked[:k]) else 0.0


def reciprocal_rank(ranked: Sequence[str], gold: Set[str]) -> float:
    for rank, doc in enumerate(ranked, start=1):
        if doc in gold:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], gold: Set[str], k: int) -> float:
    """Binary-gain nDCG: DCG of the top k over the DCG of a ranking with all gold first."""
    if not gold:
        raise ValueError("nDCG needs at least one gold document")
    dcg = sum(1.0 / math.log2(r + 1) for r, d in enumerate(ranked[:k], start=1) if d in gold)
    ideal = sum(1.0 / math.log2(r + 1) for r in range(1, min(len(gold), k) + 1))
    return dcg / ideal


@dataclass(frozen=True)
class RankedQuery:
    """One question's ranking of document ids and its gold documents."""

    question_id: str
    language: str
    ranked: tuple[str, ...]
    gold: frozenset[str]


def query_metrics(case: RankedQuery, ks: Sequence[int], depth: int) -> dict[str, float]:
    ranked = case.ranked[:depth]
    out = {f"recall@{k}": recall_at_k(ranked, case.gold, k) for k in ks}
    out.update({f"hit@{k}": hit_at_k(ranked, case.gold, k) for k in ks})
    out[f"mrr@{depth}"] = reciprocal_rank(ranked, case.gold)
    out.update({f"ndcg@{k}": ndcg_at_k(ranked, case.gold, k) for k in ks})
    return out


def retrieval_metrics(
    cases: Iterable[RankedQuery], ks: Sequence[int] = (1, 3, 5, 10), depth: int = 10
) -> dict[str, dict[str, float]]:
    """{metric: {language or "all": mean}}, plus {"n": {language: count}}; rounded to 4 places
    so the file is the same on every re-run."""
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[str, int] = defaultdict(int)
    for case in cases:
        for group in (case.language, "all"):
            counts[group] += 1
            for name, value in query_metrics(case, ks, depth).items():
                sums[name][group] += value
    out = {
        name: {g: round(total / counts[g], 4) for g, total in sorted(by_group.items())}
        for name, by_group in sums.items()
    }
    out["n"] = {g: float(n) for g, n in sorted(counts.items())}
    return out


def flat_metrics(metrics: dict[str, Any]) -> dict[str, float]:
    """{"raw": {"recall@1": {"hi": 0.9}}} -> {"raw.recall_at_1.hi": 0.9}: the names MLflow
    takes (no `@`)."""
    out: dict[str, float] = {}
    for side, by_metric in sorted(metrics.items()):
        if not isinstance(by_metric, dict):
            continue
        for metric, by_language in sorted(by_metric.items()):
            for language, value in sorted(by_language.items()):
                out[f"{side}.{metric.replace('@', '_at_')}.{language}"] = float(value)
    return out
