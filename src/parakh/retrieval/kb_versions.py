"""Retrieval as HealthBot did it: raw chunks and KB-update chunks apart, updates as of a date.

A question sees only KB-update entries added on or before its `asked_at`; its KB-update chunks
come newest first, so the prompt can tell the model that the newest one wins. The raw side uses
the configured index; the update side is searched exhaustively over the visible updates only
(KB-update sets are small, and the rule is then exact whatever the index).

With `total_chunks` set, the two sides' candidates compete for that many places by score (one
cosine scale on a dense retriever): HEALTH-PARIKSHA took the 3 most relevant chunks per query
(§3 Methodology, Knowledge Base) and Parakh reads that as three in all, updates included.

`evaluate_kb` scores the retrieval wherever a dataset says which documents answer a question:
each of its `contexts` marked `relevant` whose id is a KB document id (an XQuAD question's own
paragraph, a CataractBot question's own KB-update entry). The two sides are scored apart: a
question counts on the raw side if a raw document is gold for it, on the update side if an
update it may see is gold for it. A gold update from the question's future is not retrievable
by design and is left out, and counted. Questions with no gold (NoMIRACL, whose labels are per
query, not per passage) are not scored.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date
from typing import Any

import numpy as np

from parakh.config.retrieval import RetrieverConfig
from parakh.retrieval.embedders import Embedder
from parakh.retrieval.metrics import RankedQuery, retrieval_metrics
from parakh.retrieval.retrievers import QueryBatch, Ranking, Retriever, build_retriever
from parakh.schema import Chunk, Question, Retrieval, RetrievedChunk

# Decimals a retrieval score is written with: float32 scores differ in their last bits between
# machines (~1e-7), and retrieval.jsonl is hashed downstream; 4 places makes a rounding flip
# rare. The chunks are ordered on the unrounded scores.
SCORE_DECIMALS = 4
KS = (1, 3, 5, 10)  # the k of recall@k, hit@k and nDCG@k, up to the evaluation depth


def serialised_score(score: float) -> float:
    """A retrieval score as written to retrieval.jsonl: fixed precision, so outputs hash the
    same across machines."""
    return round(float(score), SCORE_DECIMALS)


def _retrieved(chunk: Chunk, score: float) -> RetrievedChunk:
    return RetrievedChunk(
        chunk_id=chunk.id,
        document_id=chunk.document_id,
        kind=chunk.kind,
        text=chunk.text,
        score=serialised_score(score),
        added_at=chunk.added_at,
    )


def visible(chunk: Chunk, asked_at: date | None) -> bool:
    """An update is visible to a question only if it was added on or before the question date."""
    return asked_at is None or chunk.added_at is None or chunk.added_at <= asked_at


def best_of_both(raw: Ranking, updates: Ranking, total: int) -> tuple[Ranking, Ranking]:
    """The `total` best-scoring hits of the two rankings, each side kept in its own order.

    Ties go to the KB update: it is the newer, doctor-written source the prompt prefers."""
    pooled = [(s, 0, i, "update") for i, s in updates] + [(s, 1, i, "raw") for i, s in raw]
    chosen = sorted(pooled, key=lambda h: (-h[0], h[1]))[:total]
    kept = {(side, i) for _, _, i, side in chosen}
    return (
        [(i, s) for i, s in raw if ("raw", i) in kept],
        [(i, s) for i, s in updates if ("update", i) in kept],
    )


def _documents(ranking: Ranking, chunks: list[Chunk], depth: int) -> list[str]:
    """Document ids in the order their first chunk appears in `ranking`, at most `depth`."""
    return list(dict.fromkeys(chunks[i].document_id for i, _ in ranking))[:depth]


@dataclass
class VersionedKB:
    raw_chunks: list[Chunk]
    update_chunks: list[Chunk]
    raw: Retriever
    updates: Retriever
    total_chunks: int | None = None

    @classmethod
    def build(
        cls, chunks: list[Chunk], cfg: RetrieverConfig, embedder: Embedder | None
    ) -> VersionedKB:
        raw = [c for c in chunks if c.kind == "raw"]
        updates = [c for c in chunks if c.kind == "update"]
        return cls(
            raw_chunks=raw,
            update_chunks=updates,
            raw=build_retriever(cfg, [c.text for c in raw], embedder),
            updates=build_retriever(cfg, [c.text for c in updates], embedder),
            total_chunks=cfg.total_chunks,
        )

    def visibility(self, questions: list[Question]) -> np.ndarray:
        """(questions, updates) booleans: may question i see update j?"""
        return np.array(
            [[visible(c, q.asked_at) for c in self.update_chunks] for q in questions], dtype=bool
        ).reshape(len(questions), len(self.update_chunks))

    def retrieve(
        self, questions: list[Question], queries: QueryBatch, top_k: int, top_k_updates: int
    ) -> list[Retrieval]:
        raw_hits = self.raw.search(queries, top_k)
        update_hits = self.updates.search(queries, top_k_updates, self.visibility(questions))
        results = []
        for q, raw, ups in zip(questions, raw_hits, update_hits, strict=True):
            if self.total_chunks is not None:
                raw, ups = best_of_both(raw, ups, self.total_chunks)
            # newest update first; among updates of one day, the better score first (stable)
            updates = sorted(
                ups, key=lambda h: self.update_chunks[h[0]].added_at or date.min, reverse=True
            )
            results.append(
                Retrieval(
                    question_id=q.id,
                    raw_chunks=[_retrieved(self.raw_chunks[i], s) for i, s in raw],
                    kb_update_chunks=[_retrieved(self.update_chunks[i], s) for i, s in updates],
                )
            )
        return results

    def rank_documents(
        self, questions: list[Question], queries: QueryBatch, depth: int
    ) -> tuple[list[list[str]], list[list[str]]]:
        """Per question, the `depth` best raw documents and visible update documents, by score
        (not by date): what the retrieval metrics score."""

        def chunk_depth(chunks: list[Chunk]) -> int:
            most = max(Counter(c.document_id for c in chunks).values(), default=1)
            return min(len(chunks), depth * most)

        raw = self.raw.search(queries, chunk_depth(self.raw_chunks))
        ups = self.updates.search(
            queries, chunk_depth(self.update_chunks), self.visibility(questions)
        )
        return (
            [_documents(r, self.raw_chunks, depth) for r in raw],
            [_documents(u, self.update_chunks, depth) for u in ups],
        )


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
