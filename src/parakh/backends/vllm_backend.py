"""In-process vLLM on GPUs: batched chat generation with guided JSON decoding.

Written against vLLM's documented offline API (`LLM`, `SamplingParams`, `LLM.chat`,
`GuidedDecodingParams`). vLLM is optional and never needed for the demo or the tests.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import Any

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.backends.request_builder import sampling_params
from parakh.config.schema import VLLMModel
from parakh.errors import MissingDependencyError


def vllm_sampling_kwargs(request: ChatRequest) -> dict[str, Any]:
    """SamplingParams keyword arguments for a request (the same numbers the OpenAI path sends)."""
    return sampling_params(request)


class VLLMBackend(Backend):
    cfg: VLLMModel

    def __init__(self, cfg: VLLMModel) -> None:  # type: ignore[override]
        super().__init__(cfg)
        self._llm: Any = None

    def identity(self) -> dict[str, Any]:
        return {"backend": "vllm", "model_id": self.cfg.model_id, "revision": self.cfg.revision}

    def engine_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.cfg.model_id,
            "revision": self.cfg.revision,
            "tensor_parallel_size": self.cfg.tensor_parallel_size,
            "pipeline_parallel_size": self.cfg.pipeline_parallel_size,
            "dtype": self.cfg.dtype,
            "gpu_memory_utilization": self.cfg.gpu_memory_utilization,
            "seed": self.cfg.sampling.seed,
        }
        if self.cfg.max_model_len:
            kwargs["max_model_len"] = self.cfg.max_model_len
        return kwargs

    def _load(self) -> Any:
        if self._llm is None:
            try:
                from vllm import LLM
            except ImportError as e:
                raise MissingDependencyError("vLLM", "pip install 'parakh[vllm]'") from e
            self._llm = LLM(**self.engine_kwargs())
        return self._llm

    def _params(self, request: ChatRequest) -> Any:
        from vllm import SamplingParams

        kwargs = vllm_sampling_kwargs(request)
        if request.json_schema is not None:
            from vllm.sampling_params import GuidedDecodingParams

            kwargs["guided_decoding"] = GuidedDecodingParams(json=request.json_schema)
        return SamplingParams(**kwargs)

    def complete(self, request: ChatRequest) -> Completion:
        return next(self.complete_many([request]))[1]

    def complete_many(
        self, requests: Iterable[ChatRequest]
    ) -> Iterator[tuple[ChatRequest, Completion]]:
        batch = list(requests)
        if not batch:
            return
        llm = self._load()
        start = time.perf_counter()
        outputs = llm.chat(
            [r.message_dicts() for r in batch], [self._params(r) for r in batch], use_tqdm=False
        )
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
                ),
            )
