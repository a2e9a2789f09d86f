"""Any OpenAI-compatible chat server: vLLM serve, llama.cpp server, hosted APIs.

Requests run concurrently (bounded), with retries and exponential backoff with jitter on 429,
5xx and timeouts, honouring Retry-After. After the retry budget an item becomes an error
completion with its reason. The API key is read from the environment only, never stored.
"""

from __future__ import annotations

import asyncio
import os
import queue
import random
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.backends.request_builder import chat_body
from parakh.config.schema import OpenAIModel
from parakh.errors import MissingDependencyError

_RETRYABLE_STATUS = {408, 409, 429, 500, 502, 503, 504}


def _retry_after(error: Any) -> float | None:
    response = getattr(error, "response", None)
    header = response.headers.get("retry-after") if response is not None else None
    try:
        return float(header) if header is not None else None
    except ValueError:
        return None


class OpenAIBackend(Backend):
    cfg: OpenAIModel

    def __init__(self, cfg: OpenAIModel) -> None:  # type: ignore[override]
        super().__init__(cfg)
        try:
            import openai
        except ImportError as e:
            raise MissingDependencyError("openai", "pip install 'parakh[openai]'") from e
        self._openai = openai

    def identity(self) -> dict[str, Any]:
        # The base URL is left out: replicas of one model give the same answers.
        return {"backend": "openai", "model_id": self.cfg.model_id}

    def _client(self) -> Any:
        return self._openai.AsyncOpenAI(
            base_url=self.cfg.base_url,
            api_key=os.environ.get(self.cfg.api_key_env, "EMPTY"),
            timeout=self.cfg.timeout_s,
            max_retries=0,
        )

    async def _one(self, client: Any, request: ChatRequest, limit: asyncio.Semaphore) -> Completion:
        body = chat_body(request, self.cfg.model_id)
        last_error = "no attempt made"
        for attempt in range(self.cfg.max_retries + 1):
            async with limit:
                start = time.perf_counter()
                try:
                    out = await client.chat.completions.create(**body)
                    text = out.choices[0].message.content
                    if text is None:
                        raise ValueError("response has no message content")
                    usage = out.usage
                    return Completion(
                        text=text,
                        latency_s=time.perf_counter() - start,
                        prompt_tokens=usage.prompt_tokens if usage else 0,
                        completion_tokens=usage.completion_tokens if usage else 0,
                    )
                except self._openai.APIStatusError as e:
                    last_error = f"HTTP {e.status_code}: {str(e)[:200]}"
                    if e.status_code not in _RETRYABLE_STATUS:
                        return Completion(text=None, error=last_error)
                    wait = _retry_after(e)
                except (self._openai.APITimeoutError, self._openai.APIConnectionError) as e:
                    last_error, wait = f"{type(e).__name__}: {e}", None
                except (ValueError, KeyError, IndexError, TypeError) as e:
                    last_error, wait = f"malformed response: {e}", None
            if attempt < self.cfg.max_retries:
                await asyncio.sleep(
                    wait
                    if wait is not None
                    else min(30.0, 0.5 * 2**attempt) * (0.5 + random.random())
                )
        return Completion(
            text=None, error=f"gave up after {self.cfg.max_retries + 1} attempts: {last_error}"
        )

    def complete(self, request: ChatRequest) -> Completion:
        return next(self.complete_many([request]))[1]

    def complete_many(
        self, requests: Iterable[ChatRequest]
    ) -> Iterator[tuple[ChatRequest, Completion]]:
        """Run requests concurrently on an event loop in a worker thread; yield as they finish."""
        results: queue.Queue[tuple[ChatRequest, Completion] | None] = queue.Queue()
        pending = list(requests)

        async def run_all() -> None:
            limit = asyncio.Semaphore(self.cfg.concurrency)
            client = self._client()

            async def worker(r: ChatRequest) -> None:
                results.put((r, await self._one(client, r, limit)))

            try:
                await asyncio.gather(*(worker(r) for r in pending))
            finally:
                await client.close()

        def thread_main() -> None:
            try:
                asyncio.run(run_all())
            finally:
                results.put(None)

        thread = threading.Thread(target=thread_main, daemon=True)
        thread.start()
        while (item := results.get()) is not None:
            yield item
        thread.join()
