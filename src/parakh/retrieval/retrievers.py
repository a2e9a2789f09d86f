"""Retrievers chosen by `retriever.kind`: dense (FAISS flat, HNSW, IVF), BM25, and hybrid
(dense and BM25 fused by reciprocal rank, which needs no calibration between their scores).

BM25 words are `parakh.text.tokenize` tokens, so matras, viramas and nuktas stay inside their
word (a whitespace or `\\w+` tokenizer splits or glues them); a chunk that shares no word with
the query is never returned.

Each ranks the chunk positions of one chunk list for a batch of queries. With a `visible` mask
(one row per query) the search is exhaustive over the visible chunks only: that is how a
question is kept from KB updates added after it was asked, whatever the index.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any, cast

import numpy as np

from parakh.config.retrieval import (
    BM25Params,
    FusionParams,
    HNSWParams,
    IVFParams,
    RetrieverConfig,
)
from parakh.errors import MissingDependencyError
from parakh.retrieval.embedders import Embedder
from parakh.retrieval.index import IndexKind, VectorIndex, make_vector_index, top_k_stable
from parakh.text.tokenize import tokenize

Ranking = list[tuple[int, float]]


def reciprocal_rank_fusion(
    rankings: Sequence[Ranking], weights: Sequence[float], rrf_k: int = 60
) -> Ranking:
    """RRF (Cormack, Clarke and Buettcher, SIGIR 2009): (item, sum of `weight / (rrf_k +
    rank)` over the rankings), best first, ties broken by the lower item index."""
    fused: dict[int, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, (item, _score) in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + weight / (rrf_k + rank)
    return sorted(fused.items(), key=lambda pair: (-pair[1], pair[0]))


class QueryBatch:
    """Query texts and, once a dense retriever first asks, their embeddings (computed once)."""

    def __init__(self, texts: Sequence[str], embedder: Embedder | None = None) -> None:
        self.texts = list(texts)
        self._embedder = embedder

    def subset(self, positions: Sequence[int]) -> QueryBatch:
        """The queries at `positions`, reusing their vectors if already computed."""
        batch = QueryBatch([self.texts[i] for i in positions], self._embedder)
        if "vectors" in self.__dict__:
            batch.__dict__["vectors"] = self.vectors[positions]
        return batch

    @cached_property
    def vectors(self) -> np.ndarray:
        if self._embedder is None:
            raise ValueError("a dense retriever needs query vectors: give QueryBatch an embedder")
        return self._embedder.embed_queries(self.texts)

    def __len__(self) -> int:
        return len(self.texts)


class Retriever(ABC):
    size: int

    @abstractmethod
    def search(
        self, queries: QueryBatch, k: int, visible: np.ndarray | None = None
    ) -> list[Ranking]:
        """Per query, up to k (chunk position, score) pairs, best first."""


class DenseRetriever(Retriever):
    """Cosine similarity of normalised embeddings; the FAISS index is built on first search."""

    def __init__(
        self,
        vectors: np.ndarray,
        index_kind: IndexKind = "flat",
        hnsw: HNSWParams | None = None,
        ivf: IVFParams | None = None,
    ) -> None:
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.size = int(self.vectors.shape[0])
        self.index_kind, self._hnsw, self._ivf = index_kind, hnsw, ivf

    @cached_property
    def index(self) -> VectorIndex:
        return make_vector_index(self.index_kind, self.vectors, self._hnsw, self._ivf)

    def search(
        self, queries: QueryBatch, k: int, visible: np.ndarray | None = None
    ) -> list[Ranking]:
        if self.size == 0 or k <= 0:
            return [[] for _ in range(len(queries))]
        if visible is not None:
            scores = (queries.vectors @ self.vectors.T).astype(np.float64)
            scores[~visible] = -np.inf
            return [top_k_stable(row, k) for row in scores]
        scores, ids = self.index.search(queries.vectors, k)
        return [
            [(int(i), float(s)) for s, i in zip(srow, irow, strict=True) if i >= 0]
            for srow, irow in zip(scores, ids, strict=True)
        ]


def whitespace_tokenize(text: str) -> list[str]:
    """The baseline: lower-cased words split on whitespace, punctuation left attached."""
    return text.lower().split()


TOKENIZERS: dict[str, Callable[[str], list[str]]] = {
    "script_aware": tokenize,
    "whitespace": whitespace_tokenize,
}


class BM25Retriever(Retriever):
    """BM25 (bm25s) over the chunk texts."""

    def __init__(self, texts: Sequence[str], params: BM25Params | None = None) -> None:
        params = params or BM25Params()
        self.size = len(texts)
        self._tokenizer = tokenizer = TOKENIZERS[params.tokenizer]
        self._model: Any = None
        if self.size:
            try:
                import bm25s
            except ImportError as e:
                raise MissingDependencyError("bm25s", "pip install bm25s") from e
            self._model = bm25s.BM25(k1=params.k1, b=params.b, method=params.method)
            self._model.index([tokenizer(t) for t in texts], show_progress=False)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every chunk for `query`; -inf where the chunk shares no word."""
        words = self._tokenizer(query)
        if not self.size or not words:
            return np.full(self.size, -np.inf)
        raw = np.asarray(self._model.get_scores(words), dtype=np.float64)
        return np.where(raw > 0, raw, -np.inf)

    def search(
        self, queries: QueryBatch, k: int, visible: np.ndarray | None = None
    ) -> list[Ranking]:
        rankings = []
        for qi, text in enumerate(queries.texts):
            scores = self.scores(text)
            if visible is not None:
                scores[~visible[qi]] = -np.inf
            rankings.append(top_k_stable(scores, k))
        return rankings


class HybridRetriever(Retriever):
    """Dense and BM25 rankings, each `fusion.depth` deep, fused by reciprocal rank."""

    def __init__(self, dense: Retriever, sparse: Retriever, fusion: FusionParams) -> None:
        self.dense, self.sparse, self.fusion = dense, sparse, fusion
        self.size = dense.size

    def search(
        self, queries: QueryBatch, k: int, visible: np.ndarray | None = None
    ) -> list[Ranking]:
        depth = max(k, self.fusion.depth)
        dense = self.dense.search(queries, depth, visible)
        sparse = self.sparse.search(queries, depth, visible)
        weights = (self.fusion.dense_weight, self.fusion.sparse_weight)
        return [
            reciprocal_rank_fusion((d, s), weights, self.fusion.rrf_k)[:k]
            for d, s in zip(dense, sparse, strict=True)
        ]


def build_retriever(
    cfg: RetrieverConfig,
    texts: Sequence[str],
    embedder: Embedder | None,
    vectors: np.ndarray | None = None,
) -> Retriever:
    """The retriever `cfg.kind` names over `texts`; passage vectors are embedded unless given."""

    def dense(kind: IndexKind) -> DenseRetriever:
        nonlocal vectors
        if vectors is None:
            if embedder is None:
                raise ValueError(f"retriever '{cfg.name}' is dense: it needs an embedder")
            vectors = embedder.embed_passages(list(texts))
        return DenseRetriever(vectors, kind, cfg.hnsw, cfg.ivf)

    if cfg.kind == "bm25":
        return BM25Retriever(texts, cfg.bm25)
    if cfg.kind == "hybrid":
        return HybridRetriever(dense(cfg.dense_index), BM25Retriever(texts, cfg.bm25), cfg.fusion)
    return dense(cast(IndexKind, cfg.kind.removeprefix("faiss_")))  # faiss_flat, _hnsw, _ivf
