"""In-process vLLM on GPUs: batched chat generation with guided (structured) JSON decoding.

Written against vLLM's documented offline API: `LLM(model=..., tensor_parallel_size=...)`,
`SamplingParams`, `LLM.chat(conversations, sampling_params)` for chat models (the tokenizer's
chat template, or the catalog's `chat_template`), `LLM.generate(prompts, sampling_params)` for
base models. JSON-schema constraints use `StructuredOutputsParams(json=...)` passed as
`SamplingParams(structured_outputs=...)` (vLLM >= 0.10.2; the `guided_*` names were removed in
0.12), or `GuidedDecodingParams(json=...)` as `SamplingParams(guided_decoding=...)` on older
releases. The request numbers come from the request builder the OpenAI path uses too.
vLLM is optional and never needed for the demo or the tests.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.backends.request_builder import sampling_params, wire_messages
from parakh.config.model import VLLMModel
from parakh.errors import MissingDependencyError

INSTALL = "pip install 'parakh[vllm]'"


def _vllm() -> Any:
    try:
        import vllm
        import vllm.sampling_params
    except ImportError as e:
        raise MissingDependencyError("vLLM", INSTALL) from e
    return vllm


def structured_output_kwargs(vllm_sampling: Any, schema: dict[str, Any]) -> dict[str, Any]:
    """The SamplingParams keyword that constrains output to `schema`, for this vLLM version."""
    structured = getattr(vllm_sampling, "StructuredOutputsParams", None)
    if structured is not None:
        return {"structured_outputs": structured(json=schema)}
    guided = getattr(vllm_sampling, "GuidedDecodingParams", None)
    if guided is not None:
        return {"guided_decoding": guided(json=schema)}
    raise MissingDependencyError(
        "a vLLM with structured outputs (StructuredOutputsParams or GuidedDecodingParams)",
        "pip install -U 'parakh[vllm]'",
    )


class VLLMBackend(Backend):
    cfg: VLLMModel

    def __init__(self, cfg: VLLMModel) -> None:
        super().__init__(cfg)
        self._llm: Any = None

    def engine_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of `vllm.LLM(...)`."""
        return {
            "model": self.cfg.model_id,
            "revision": self.cfg.revision,
            "tensor_parallel_size": self.cfg.tensor_parallel_size,
            "pipeline_parallel_size": self.cfg.pipeline_parallel_size,
            "dtype": self.cfg.dtype,
            "gpu_memory_utilization": self.cfg.gpu_memory_utilization,
            "max_model_len": self.cfg.max_model_len or self.cfg.context_window,
            "tokenizer_mode": self.cfg.tokenizer_mode,
            "trust_remote_code": self.cfg.trust_remote_code,
            "seed": self.cfg.sampling.seed,
        }

    def _load(self) -> Any:
        if self._llm is None:
            self._llm = _vllm().LLM(**self.engine_kwargs())
        return self._llm

    def count_tokens(self, text: str) -> int:
        return len(self._load().get_tokenizer().encode(text, add_special_tokens=False))

    def sampling_params(self, request: ChatRequest) -> Any:
        """The `vllm.SamplingParams` for one request."""
        vllm = _vllm()
        kwargs = sampling_params(request)  # the numbers the OpenAI path sends
        if request.json_schema is not None:
            kwargs.update(structured_output_kwargs(vllm.sampling_params, request.json_schema))
        return vllm.SamplingParams(**kwargs)

    async def generate(
        self, requests: Sequence[ChatRequest]
    ) -> AsyncIterator[tuple[ChatRequest, Completion]]:
        """One batched, blocking call per kind (chat, completion); vLLM schedules the batch."""
        for chat in (True, False):
            batch = [r for r in requests if (r.prompt is None) == chat]
            if batch:
                for result in self._run(batch, chat=chat):
                    yield result

    def _run(
        self, batch: list[ChatRequest], *, chat: bool
    ) -> Iterator[tuple[ChatRequest, Completion]]:
        llm = self._load()
        params = [self.sampling_params(r) for r in batch]
        start = time.perf_counter()
        try:
            if chat:
                kwargs: dict[str, Any] = {"use_tqdm": False}
                if self.cfg.chat_template:
                    kwargs["chat_template"] = self.cfg.chat_template
                outputs = llm.chat(
                    [wire_messages(r, self.cfg.system_role) for r in batch], params, **kwargs
                )
            else:
                outputs = llm.generate([r.prompt for r in batch], params, use_tqdm=False)
        except ValueError as e:  # e.g. a prompt longer than max_model_len
            for r in batch:
                yield r, Completion(text=None, error=f"vLLM: {e}")
            return
        latency = (time.perf_counter() - start) / len(batch)
        for request, out in zip(batch, outputs, strict=True):
            first = out.outputs[0]
            yield (
                request,
                Completion(
                    text=first.text,
                    latency_s=latency,
                    prompt_tokens=len(out.prompt_token_ids or []),
                    completion_tokens=len(first.token_ids),
                    finish_reason=getattr(first, "finish_reason", None),
                ),
            )
