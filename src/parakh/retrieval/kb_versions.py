"""Retrieval as HealthBot did it: raw chunks and KB-update chunks apart, updates as of a date.

A question sees only KB-update entries added on or before its `asked_at`; its KB-update chunks
come newest first, so the prompt can tell the model that the newest one wins.
"""

from __future__ import annotations

from datetime import date

import numpy as np

from parakh.retrieval.index import FlatIndex
from parakh.schema import Chunk, Question, Retrieval, RetrievedChunk


def _retrieved(chunk: Chunk, score: float) -> RetrievedChunk:
    # Scores are rounded so that re-runs are byte-identical across BLAS thread counts.
    return RetrievedChunk(
        chunk_id=chunk.id,
        document_id=chunk.document_id,
        kind=chunk.kind,
        text=chunk.text,
        score=round(float(score), 5),
        added_at=chunk.added_at,
    )


def visible(chunk: Chunk, asked_at: date | None) -> bool:
    """An update is visible to a question only if it was added on or before the question date."""
    return asked_at is None or chunk.added_at is None or chunk.added_at <= asked_at


def retrieve_versioned(
    questions: list[Question],
    query_vectors: np.ndarray,
    raw_chunks: list[Chunk],
    raw_vectors: np.ndarray,
    update_chunks: list[Chunk],
    update_vectors: np.ndarray,
    top_k: int,
    top_k_updates: int,
) -> list[Retrieval]:
    raw_index, update_index = FlatIndex(raw_vectors), FlatIndex(update_vectors)
    raw_scores, raw_ids = raw_index.search(query_vectors, top_k)
    # Search all updates, then drop those from the question's future; KB-update sets are small,
    # and an exact search keeps the rule simple and testable.
    up_scores, up_ids = update_index.search(query_vectors, update_index.size)
    results = []
    for qi, q in enumerate(questions):
        pairs = zip(raw_scores[qi], raw_ids[qi], strict=True)
        raw = [_retrieved(raw_chunks[i], s) for s, i in pairs]
        hits = [
            (s, update_chunks[i])
            for s, i in zip(up_scores[qi], up_ids[qi], strict=True)
            if visible(update_chunks[i], q.asked_at)
        ][:top_k_updates]
        hits.sort(key=lambda h: (h[1].added_at or date.min, h[0]), reverse=True)
        results.append(
            Retrieval(
                question_id=q.id,
                raw_chunks=raw,
                kb_update_chunks=[_retrieved(c, s) for s, c in hits],
            )
        )
    return results
