"""Retrieval metrics of a KB index wherever a dataset says which documents answer a question.

Gold comes from the question itself: each of its `contexts` marked `relevant` whose id is a KB
document id (an XQuAD question's own paragraph, a CataractBot question's own KB-update entry).
Raw documents and KB updates are retrieved apart, so they are scored apart: a question counts
on the raw side if a raw document is gold for it, on the update side if an update it may see
(added on or before its `asked_at`) is gold for it. A gold update from the question's future
is not retrievable by design and is left out, and counted. Questions with no gold (NoMIRACL,
whose labels are per query, not per passage) are not scored.
"""

from __future__ import annotations

from typing import Any

from parakh.retrieval.kb_versions import VersionedKB, visible
from parakh.retrieval.metrics import RankedQuery, retrieval_metrics
from parakh.retrieval.retrievers import QueryBatch
from parakh.schema import Question

KS = (1, 3, 5, 10)


def gold_documents(question: Question, document_ids: set[str]) -> frozenset[str]:
    return frozenset(p.id for p in question.contexts if p.relevant and p.id in document_ids)


def evaluate_kb(
    questions: list[Question], kb: VersionedKB, queries: QueryBatch, depth: int
) -> dict[str, Any] | None:
    """{"raw": metrics, "update": metrics, "excluded_future_gold": n}, each side only where
    some question has gold on it; None where no question has any gold."""
    raw_ids = {c.document_id for c in kb.raw_chunks}
    update_added = {c.document_id: c for c in kb.update_chunks}
    raw_gold = [gold_documents(q, raw_ids) for q in questions]
    update_gold_all = [gold_documents(q, set(update_added)) for q in questions]
    update_gold = [
        frozenset(d for d in gold if visible(update_added[d], q.asked_at))
        for q, gold in zip(questions, update_gold_all, strict=True)
    ]
    if not any(raw_gold) and not any(update_gold_all):
        return None
    scored = [i for i, q in enumerate(questions) if raw_gold[i] or update_gold[i]]
    subset = [questions[i] for i in scored]
    raw_ranked, update_ranked = (
        kb.rank_documents(subset, queries.subset(scored), depth) if scored else ([], [])
    )
    sides: dict[str, list[RankedQuery]] = {"raw": [], "update": []}
    for j, i in enumerate(scored):
        q = questions[i]
        for side, gold, ranked in (
            ("raw", raw_gold[i], raw_ranked[j]),
            ("update", update_gold[i], update_ranked[j]),
        ):
            if gold:
                sides[side].append(RankedQuery(q.id, q.language, tuple(ranked), gold))
    ks = tuple(k for k in KS if k <= depth)
    out: dict[str, Any] = {
        side: retrieval_metrics(cases, ks, depth) for side, cases in sides.items() if cases
    }
    out["excluded_future_gold"] = sum(
        len(a - b) for a, b in zip(update_gold_all, update_gold, strict=True)
    )
    return out
