"""Vector indexes over L2-normalised embeddings (inner product = cosine), built with FAISS.

`flat` is exact and the default; `hnsw` (graph) and `ivf` (inverted lists over k-means cells)
are approximate and pay off for large KBs. HNSW is built on one thread: a parallel build
inserts nodes in a scheduling-dependent order, and the same KB must give the same index.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from parakh.config.retrieval import HNSWParams, IVFParams
from parakh.errors import MissingDependencyError

IndexKind = Literal["flat", "hnsw", "ivf"]


def _faiss() -> Any:
    try:
        import faiss
    except ImportError as e:
        raise MissingDependencyError("faiss", "pip install faiss-cpu") from e
    return faiss


def _f32(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x, dtype=np.float32)


def top_k_stable(scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The k best (index, score) pairs of a 1-D array, ties broken by the lower index;
    -inf scores (masked out) are never returned."""
    valid = np.flatnonzero(scores > -np.inf)
    if k <= 0 or valid.size == 0:
        return []
    s = scores[valid]
    if k < valid.size:
        kth = np.partition(s, s.size - k)[s.size - k]
        keep = s >= kth  # every tie at the boundary; the sort below keeps the lowest indices
        valid, s = valid[keep], s[keep]
    order = np.lexsort((valid, -s))[:k]
    return [(int(valid[i]), float(s[i])) for i in order]


class VectorIndex:
    """A FAISS index over `size` vectors."""

    size: int
    _index: Any

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(scores, ids), each (n, min(k, size)), best first; an id of -1 marks no result."""
        k = min(k, self.size)
        if k == 0:
            n = queries.shape[0]
            return np.zeros((n, 0), np.float32), np.zeros((n, 0), np.int64)
        return self._index.search(_f32(queries), k)


class FlatIndex(VectorIndex):
    """FAISS IndexFlatIP: exact cosine search."""

    def __init__(self, vectors: np.ndarray) -> None:
        faiss = _faiss()
        self.size = int(vectors.shape[0])
        self._index = faiss.IndexFlatIP(int(vectors.shape[1]))
        if self.size:
            self._index.add(_f32(vectors))


class HNSWIndex(VectorIndex):
    """FAISS IndexHNSWFlat with inner product; `ef_search` trades speed for recall."""

    def __init__(self, vectors: np.ndarray, params: HNSWParams) -> None:
        faiss = _faiss()
        self.size = int(vectors.shape[0])
        self._index = faiss.IndexHNSWFlat(
            int(vectors.shape[1]), params.m, faiss.METRIC_INNER_PRODUCT
        )
        self._index.hnsw.efConstruction = params.ef_construction
        self.set_search_breadth(params.ef_search)
        if self.size:
            threads = faiss.omp_get_max_threads()
            faiss.omp_set_num_threads(1)
            try:
                self._index.add(_f32(vectors))
            finally:
                faiss.omp_set_num_threads(threads)

    def set_search_breadth(self, ef_search: int) -> None:
        """Candidates kept while walking the graph: more is slower and finds more."""
        self._index.hnsw.efSearch = ef_search


def default_nlist(size: int) -> int:
    """About 4 * sqrt(n) lists, with at least 39 training points per list (FAISS's minimum)."""
    return max(1, min(int(4 * math.sqrt(size)), size // 39))


class IVFIndex(VectorIndex):
    """FAISS IndexIVFFlat with inner product; k-means (fixed seed) picks the cells and each
    query visits `nprobe` of them."""

    def __init__(self, vectors: np.ndarray, params: IVFParams) -> None:
        faiss = _faiss()
        self.size = int(vectors.shape[0])
        dim = int(vectors.shape[1])
        self.nlist = min(params.nlist or default_nlist(self.size), max(self.size, 1))
        self._quantizer = faiss.IndexFlatIP(dim)
        self._index = faiss.IndexIVFFlat(
            self._quantizer, dim, self.nlist, faiss.METRIC_INNER_PRODUCT
        )
        self._index.cp.seed = 1234
        self.set_search_breadth(params.nprobe)
        if self.size:
            self._index.train(_f32(vectors))
            self._index.add(_f32(vectors))

    def set_search_breadth(self, nprobe: int) -> None:
        """Cells visited per query: more is slower and finds more."""
        self._index.nprobe = min(nprobe, self.nlist)


def make_vector_index(
    kind: IndexKind,
    vectors: np.ndarray,
    hnsw: HNSWParams | None = None,
    ivf: IVFParams | None = None,
) -> VectorIndex:
    if kind == "hnsw":
        return HNSWIndex(vectors, hnsw or HNSWParams())
    if kind == "ivf":
        return IVFIndex(vectors, ivf or IVFParams())
    return FlatIndex(vectors)
