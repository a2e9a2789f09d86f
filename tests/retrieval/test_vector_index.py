"""FAISS indexes: flat is exact; HNSW and IVF find the exact neighbours on clustered data."""

from __future__ import annotations

import numpy as np
import pytest

from parakh.config.retrieval import HNSWParams, IVFParams
from parakh.retrieval.index import (
    FlatIndex,
    HNSWIndex,
    IVFIndex,
    default_nlist,
    make_vector_index,
    top_k_stable,
)


def _clustered(n: int, dim: int = 32, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((20, dim))
    x = centres[rng.integers(0, 20, n)] + 0.5 * rng.standard_normal((n, dim))
    q = centres[rng.integers(0, 20, 50)] + 0.5 * rng.standard_normal((50, dim))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return x.astype(np.float32), q.astype(np.float32)


def _exact(x: np.ndarray, q: np.ndarray, k: int) -> np.ndarray:
    return np.argsort(-(q @ x.T), axis=1, kind="stable")[:, :k]


def test_flat_index_is_exact_search() -> None:
    x, q = _clustered(500)
    scores, ids = FlatIndex(x).search(q, 10)
    assert (ids == _exact(x, q, 10)).mean() > 0.99  # ties aside
    np.testing.assert_allclose(scores[:, 0], (q @ x.T).max(axis=1), rtol=1e-5)


@pytest.mark.parametrize(
    "build",
    [
        lambda x: HNSWIndex(x, HNSWParams(m=16, ef_construction=64, ef_search=64)),
        lambda x: IVFIndex(x, IVFParams(nlist=20, nprobe=5)),
    ],
    ids=["hnsw", "ivf"],
)
def test_approximate_indexes_recall_the_exact_neighbours(build) -> None:
    x, q = _clustered(2000)
    _, ids = build(x).search(q, 10)
    exact = _exact(x, q, 10)
    recall = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(ids, exact, strict=True)])
    assert recall >= 0.95


def test_hnsw_and_ivf_are_rebuilt_identically() -> None:
    x, q = _clustered(1500)
    for make in (
        lambda: HNSWIndex(x, HNSWParams(m=16, ef_construction=64)),
        lambda: IVFIndex(x, IVFParams()),
    ):
        a, b = make().search(q, 5), make().search(q, 5)
        assert np.array_equal(a[1], b[1]) and np.array_equal(a[0], b[0])


def test_small_and_empty_indexes() -> None:
    x, q = _clustered(5)
    for kind in ("flat", "hnsw", "ivf"):
        scores, ids = make_vector_index(kind, x).search(q, 10)
        assert ids.shape == (50, 5) and (ids >= 0).all()
    empty = FlatIndex(np.zeros((0, 32), np.float32))
    assert empty.search(q, 3)[1].shape == (50, 0)
    assert default_nlist(10) == 1 and default_nlist(100_000) == 1264


def test_top_k_stable_breaks_ties_by_position_and_skips_masked() -> None:
    scores = np.array([0.5, 0.9, 0.5, -np.inf, 0.9, 0.1])
    assert top_k_stable(scores, 3) == [(1, 0.9), (4, 0.9), (0, 0.5)]
    assert top_k_stable(scores, 10) == [(1, 0.9), (4, 0.9), (0, 0.5), (2, 0.5), (5, 0.1)]
    assert top_k_stable(np.full(4, -np.inf), 2) == []
    assert top_k_stable(scores, 0) == []
