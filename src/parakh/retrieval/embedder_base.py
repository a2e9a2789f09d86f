"""The interface every embedder implements (`parakh.retrieval.embedders` holds them), apart
from the embedders themselves so that the embedding cache, which wraps any of them, and the
factory that wraps them in it do not import each other."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np


class Embedder(ABC):
    """Maps texts to L2-normalised float32 vectors; queries and passages may differ (e5)."""

    name: str
    show_progress: bool = False  # a bar of texts per second for calls of more than one batch

    @abstractmethod
    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    @abstractmethod
    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def identity(self) -> dict[str, Any]:
        """Everything that changes the vectors (model, revision, prefixes), for cache keys."""
        return {"kind": type(self).__name__, "name": self.name}

    def count_tokens(self, text: str) -> int:
        return len(text.split())
