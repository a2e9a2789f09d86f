"""Vector indexes: exact inner product over normalised embeddings with FAISS."""

from __future__ import annotations

import numpy as np

from parakh.errors import MissingDependencyError


class FlatIndex:
    """FAISS IndexFlatIP: exact cosine search (embeddings are L2-normalised)."""

    def __init__(self, vectors: np.ndarray) -> None:
        try:
            import faiss
        except ImportError as e:
            raise MissingDependencyError("faiss", "pip install faiss-cpu") from e
        self.size = int(vectors.shape[0])
        self._index = faiss.IndexFlatIP(int(vectors.shape[1]))
        if self.size:
            self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(scores, ids) of shape (n, min(k, size)), best first; ids -1 never returned."""
        k = min(k, self.size)
        if k == 0:
            n = queries.shape[0]
            return np.zeros((n, 0), np.float32), np.zeros((n, 0), np.int64)
        scores, ids = self._index.search(np.ascontiguousarray(queries, dtype=np.float32), k)
        return scores, ids
