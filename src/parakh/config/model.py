"""Schema of conf/model/*.yaml: one class per backend, chosen by `backend`. API keys never
live here: only the name of the environment variable that holds one.

Every class says which of its fields cannot change an answer (`answer_neutral`: prices, notes,
timeouts, ...). All others enter the response cache key (`answer_settings`), so a field added
later is keyed unless declared neutral (tests/backends/test_cache_key.py holds each class to it).
"""

from __future__ import annotations

import json
import os
from pathlib import PurePath
from typing import Annotated, Any, ClassVar, Literal, get_args
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)

from parakh import plugins
from parakh.config.base import Strict
from parakh.errors import ConfigError, first_field_error


def _http_url(url: str) -> str:
    """A base URL a request can go to: http(s), with a host (and a valid port, if any)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number in range
    except ValueError as e:
        raise ValueError(f"{url!r} is not a valid URL ({e})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} is not an http(s) URL with a host, e.g. http://host:8000/v1")
    return url


HttpUrl = Annotated[str, AfterValidator(_http_url)]


class AnswerKeyed(Strict):
    """A config whose settings, all but `answer_neutral`, enter the response cache key."""

    answer_neutral: ClassVar[frozenset[str]] = frozenset()

    def answer_settings(self) -> dict[str, Any]:
        """Every field that can change an answer, as JSON data (nested configs whole)."""
        return self.model_dump(mode="json", exclude=set(self.answer_neutral))


class Sampling(Strict):
    temperature: float = Field(default=0.0, ge=0)
    top_p: float = Field(default=1.0, gt=0, le=1)
    max_tokens: int = Field(default=128, ge=1)
    seed: int = 0
    stop: list[str] = Field(default_factory=list)


class Prices(Strict):
    """USD per million tokens; used only for accounting, never for caching."""

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)
    as_of: str = Field(default="", description="when these prices were read off the price list")


class CompletionFormat(Strict):
    """How chat turns become one text for a base model (no chat template): each template holds
    `{content}`; `generation_prefix` ends the prompt, where the model writes."""

    system: str = "{content}\n\n"
    user: str = "{content}\n"
    assistant: str = "Answer: {content}\n\n"
    generation_prefix: str = "Answer:"
    stop: list[str] = Field(default_factory=lambda: ["\n\n"])


class ModelBase(AnswerKeyed):
    # The name only labels rows: two configs of the same model share their cached answers.
    answer_neutral: ClassVar[frozenset[str]] = frozenset({"name", "description", "prices", "notes"})

    name: str
    description: str = ""
    sampling: Sampling = Field(default_factory=Sampling)
    context_window: int = Field(default=4096, gt=0, description="tokens, prompt + completion")
    kind: Literal["chat", "base"] = "chat"
    system_role: bool = Field(
        default=True, description="false: the system turn is merged into the first user turn"
    )
    completion_format: CompletionFormat = Field(default_factory=CompletionFormat)
    prices: Prices | None = None
    notes: str = Field(default="", description="chat-template and serving notes for humans")

    def weights(self) -> str | None:
        """The name of the weights this config runs, whatever serves them, so that a judge never
        silently scores its own answers; None: no LLM weights. Every backend's config says it."""
        raise NotImplementedError(f"{type(self).__name__} does not say what weights it runs")


def _hub_name(model_id: str) -> str:
    return model_id.rstrip("/").rsplit("/", 1)[-1]


class LlamaCppModel(ModelBase):
    """A GGUF model run in-process by llama-cpp-python on CPU."""

    # The GGUF is keyed by its content hash (the backend adds it), not by where it lies; threads
    # split each matrix product by rows, so their number does not change a sum.
    answer_neutral = ModelBase.answer_neutral | {"model_path", "model_package", "n_threads"}

    backend: Literal["llamacpp"]
    model_path: str | None = None
    model_package: str | None = Field(default=None, description="a package shipping the GGUF")
    n_threads: int | None = Field(default=None, ge=1, description="None: the CPUs it may run on")
    n_batch: int = Field(default=512, ge=1)

    def weights(self) -> str | None:
        if self.model_package:  # `llm_<model>` ships <model>'s GGUF (a plugin of the `llm` tool)
            return self.model_package.removeprefix("llm_")
        return PurePath(self.model_path).stem if self.model_path else None


OPENAI_API_URL = "https://api.openai.com/v1"


class Server(AnswerKeyed):
    """One replica of a served model, with its own limit on requests in flight."""

    answer_neutral = frozenset({"concurrency"})

    base_url: HttpUrl
    concurrency: int | None = Field(default=None, ge=1, description="null: the model's")


class OpenAIModel(ModelBase):
    """Any OpenAI-compatible endpoint (vLLM serve, llama.cpp server, hosted APIs, Azure).
    Replicas of one model (a `base_url` list, or `servers`) get requests by load.

    The cache key holds the set of servers: one model id on two servers may be two models (two
    GGUFs under one alias); adding or removing a replica starts a fresh set of entries.
    """

    answer_neutral = ModelBase.answer_neutral | {
        "transport",
        "server_cooldown_s",
        "api_key_env",
        "concurrency",
        "timeout_s",
        "max_retries",
        "backoff_s",
        "max_backoff_s",
    }

    backend: Literal["openai"]
    model_id: str
    revision: str | None = Field(default=None, description="weights revision the server runs")
    base_url: str | list[str] | None = Field(
        default=None, description="null: $OPENAI_BASE_URL or api.openai.com"
    )
    servers: list[Server] = Field(default_factory=list, description="replicas (not with base_url)")
    transport: Literal["http", "sdk"] = Field(
        default="http",
        description="http: Parakh's own HTTP/1.1 client; sdk: the openai SDK's async client",
    )
    server_cooldown_s: float = Field(
        default=5.0, gt=0, description="rest of a server that stops answering, before a probe"
    )
    api_key_env: str = "OPENAI_API_KEY"
    azure_api_version: str | None = Field(default=None, description="set for Azure OpenAI")
    structured_output: Literal["json_schema", "json_object_schema", "none"] = Field(
        default="json_schema", description="json_object_schema: llama-cpp-python's server"
    )
    concurrency: int = Field(default=8, ge=1)
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=5, ge=0)
    backoff_s: float = Field(default=0.5, ge=0, description="first retry wait, doubled each try")
    max_backoff_s: float = Field(default=30.0, ge=0)

    @field_validator("base_url")
    @classmethod
    def _base_urls_are_http(cls, value: str | list[str] | None) -> str | list[str] | None:
        # Here, not in the type: a union's type names would fill the error's field path.
        for url in [value] if isinstance(value, str) else value or []:
            _http_url(url)
        return value

    @model_validator(mode="after")
    def _one_way_to_list_servers(self) -> OpenAIModel:
        if isinstance(self.base_url, list) and not self.base_url:
            raise ValueError(f"model '{self.name}': `base_url` is an empty list")
        if self.servers and self.base_url is not None:
            raise ValueError(f"model '{self.name}': give either `base_url` or `servers`, not both")
        return self

    def server_list(self) -> list[Server]:
        """Every replica with its concurrency. No base_url: $OPENAI_BASE_URL, else OpenAI's
        API, as the openai SDK does."""
        if self.servers:
            return [
                Server(base_url=s.base_url, concurrency=s.concurrency or self.concurrency)
                for s in self.servers
            ]
        if isinstance(self.base_url, list):
            urls = self.base_url
        else:
            urls = [self.base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_API_URL]
        return [Server(base_url=url, concurrency=self.concurrency) for url in urls]

    def answer_settings(self) -> dict[str, Any]:
        """`base_url` and `servers` enter as one sorted set of servers (trailing `/` dropped)."""
        settings = super().answer_settings()
        del settings["base_url"]
        servers = [
            {**s.answer_settings(), "base_url": s.base_url.rstrip("/")} for s in self.server_list()
        ]
        unique = {json.dumps(s, sort_keys=True): s for s in servers}
        settings["servers"] = [unique[k] for k in sorted(unique)]
        return settings

    def weights(self) -> str | None:
        return _hub_name(self.model_id)


class VLLMModel(ModelBase):
    """An open-weight model run in-process by vLLM on GPUs. How the weights are laid over GPUs
    is not keyed: like a batch's make-up, it moves only the order of floating-point sums."""

    answer_neutral = ModelBase.answer_neutral | {
        "tensor_parallel_size",
        "pipeline_parallel_size",
        "gpu_memory_utilization",
    }

    backend: Literal["vllm"]
    model_id: str
    revision: str | None = None
    tensor_parallel_size: int = Field(default=1, ge=1)
    pipeline_parallel_size: int = Field(default=1, ge=1)
    dtype: str = "auto"
    gpu_memory_utilization: float = Field(default=0.9, gt=0, le=1)
    max_model_len: int | None = Field(default=None, gt=0)
    tokenizer_mode: str = "auto"
    trust_remote_code: bool = False
    chat_template: str | None = Field(default=None, description="instead of the tokenizer's")

    def weights(self) -> str | None:
        return _hub_name(self.model_id)


class ExtractiveModel(ModelBase):
    """Non-LLM baseline: returns the KB sentences closest to the question."""

    backend: Literal["extractive"]
    max_sentences: int = Field(default=2, ge=1)
    min_similarity: float = 0.0

    def weights(self) -> str | None:
        return None  # no LLM weights of its own


class ScriptedModel(ModelBase):
    """Deterministic fake backend for tests: answers from a fixed table or a template."""

    # A test fake: each scripted model keeps its own entries, whatever it answers.
    answer_neutral = ModelBase.answer_neutral - {"name"}

    backend: Literal["scripted"]
    responses: dict[str, str] = Field(default_factory=dict)
    default_response: str = ""

    def weights(self) -> str | None:
        return None  # no LLM weights of its own


class ReplayModel(ModelBase):
    """Answers made elsewhere, read from a JSONL or CSV file (relative to the project root)."""

    # Which questions the run holds does not change the answer read for one of them.
    answer_neutral = ModelBase.answer_neutral | {"unknown_ids"}

    backend: Literal["replay"]
    context_window: int = Field(default=1_000_000, gt=0, description="no prompt is sent")
    answers: str = Field(description="the answers file (.jsonl or .csv)")
    format: Literal["auto", "jsonl", "csv"] = Field(default="auto", description="auto: by suffix")
    question_id_field: str = "question_id"
    question_id_template: str | None = Field(
        default=None, description="e.g. '{query_id}-{language}'; replaces question_id_field"
    )
    response_field: str = "response"
    model_field: str = Field(default="model", description="who wrote a row; dotted: nested")
    model_value: str | None = Field(
        default=None, description="the model_field (or responses_field key) this model takes"
    )
    responses_field: str | None = Field(
        default=None, description="JSONL: a (dotted) field holding {model: response} per row"
    )
    duplicates: Literal["error", "first"] = Field(
        default="error", description="a question answered twice: error, or keep the first"
    )
    unknown_ids: Literal["error", "ignore"] = Field(
        default="error", description="an answer to a question not in the run: error, or ignore"
    )

    @model_validator(mode="after")
    def _responses_field_needs_a_key(self) -> ReplayModel:
        if self.responses_field is not None and self.model_value is None:
            raise ValueError(
                f"model '{self.name}': `responses_field` needs `model_value`, the key to take"
            )
        return self

    def weights(self) -> str | None:
        return None  # no LLM weights of its own


def _built_in_or_plugin(data: Any, built_in: ValidatorFunctionWrapHandler) -> Any:
    """A built-in backend's config, or the config class a plugin backend names as its
    `config_class` (`parakh.plugins`), validated as strictly as a built-in one."""
    backend = data.get("backend") if isinstance(data, dict) else getattr(data, "backend", None)
    if backend is None or backend in _BUILT_IN_BACKENDS:
        return built_in(data)
    if isinstance(data, ModelBase):  # a plugin's config, validated already
        return data
    try:
        backend_class = plugins.load("backends", backend)
    except ConfigError as e:
        raise ValueError(str(e)) from None
    config = getattr(backend_class, "config_class", None)
    if not (isinstance(config, type) and issubclass(config, ModelBase)):
        raise ValueError(
            f"backend '{backend}' ({backend_class.__module__}.{backend_class.__name__}) has no "
            "`config_class`, a subclass of parakh.config.model.ModelBase"
        )
    try:
        return config.model_validate(data)
    except ValidationError as e:
        field, message = first_field_error(e)
        raise ValueError(f"{field}: {message}") from None


BuiltInModel = (
    LlamaCppModel | OpenAIModel | VLLMModel | ExtractiveModel | ScriptedModel | ReplayModel
)
_BUILT_IN_BACKENDS = {
    get_args(c.model_fields["backend"].annotation)[0] for c in get_args(BuiltInModel)
}
ModelConfig = Annotated[
    BuiltInModel,
    Field(discriminator="backend"),
    WrapValidator(_built_in_or_plugin),
]
