"""Reciprocal rank fusion (Cormack, Clarke and Buettcher, SIGIR 2009).

RRF adds up `weight / (rrf_k + rank)` over the rankings a chunk appears in. It needs no score
calibration between BM25 (unbounded) and cosine similarity (-1..1), which is why it is the
usual way to fuse sparse and dense retrieval.
"""

from __future__ import annotations

from collections.abc import Sequence

Ranking = list[tuple[int, float]]


def reciprocal_rank_fusion(
    rankings: Sequence[Ranking], weights: Sequence[float], rrf_k: int = 60
) -> Ranking:
    """Fuse rankings of (item, score), best first; returns (item, fused score), best first,
    ties broken by the lower item index so that fusion is deterministic."""
    if len(rankings) != len(weights):
        raise ValueError(f"{len(rankings)} rankings but {len(weights)} weights")
    fused: dict[int, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, (item, _score) in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + weight / (rrf_k + rank)
    return sorted(fused.items(), key=lambda pair: (-pair[1], pair[0]))
