"""Any OpenAI-compatible server: vLLM serve, llama.cpp server, hosted APIs, Azure OpenAI.

Requests run concurrently on the `openai` SDK's async client, at most `concurrency` in flight.
A 429, a 5xx, a timeout, a dropped connection or an unparsable answer is retried with
exponential backoff and full jitter, waiting what `Retry-After` asks when the server says;
other 4xx are final at once. After the retry budget an item becomes an error completion with
its reason. The API key is read from the environment only, and scrubbed from every error text.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import json
import os
import queue
import random
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.backends.request_builder import chat_body, completion_body
from parakh.config.schema import OpenAIModel
from parakh.errors import ConfigError, MissingDependencyError

RETRYABLE_STATUS = frozenset({408, 409, 425, 429})


class _Retryable(Exception):
    """A failed attempt worth another: the reason, and the wait the server asked for."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def retry_after_seconds(headers: Any) -> float | None:
    """The wait a 429/503 asks for: `retry-after-ms`, `Retry-After` seconds or HTTP date."""
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, parsed.timestamp() - time.time())


def parse_response(data: Any, chat: bool) -> tuple[str, str | None, tuple[int, int]]:
    """Text, finish reason and (prompt, completion) tokens of a (chat) completion body."""
    choice = data["choices"][0]
    text = choice["message"]["content"] if chat else choice["text"]
    if not isinstance(text, str):
        raise TypeError(f"the answer's text is {type(text).__name__}, not a string")
    usage = data.get("usage") or {}
    tokens = (int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0))
    return text, choice.get("finish_reason"), tokens


def backoff_seconds(attempt: int, base: float, cap: float, rng: random.Random) -> float:
    """Exponential backoff with full jitter: uniform in [0, min(cap, base * 2**attempt)]."""
    return rng.uniform(0.0, min(cap, base * 2**attempt))


class OpenAIBackend(Backend):
    cfg: OpenAIModel

    def __init__(self, cfg: OpenAIModel) -> None:
        super().__init__(cfg)
        try:
            import openai
        except ImportError as e:
            raise MissingDependencyError("openai", "pip install 'parakh[openai]'") from e
        self._openai = openai
        self._rng = random.Random(cfg.sampling.seed)
        self.calls = 0  # HTTP attempts made, retries included

    def identity(self) -> dict[str, Any]:
        # The base URL is left out: replicas of one model give the same answers.
        identity: dict[str, Any] = {"backend": "openai", "model_id": self.cfg.model_id}
        if self.cfg.revision:
            identity["revision"] = self.cfg.revision
        return identity

    def _api_key(self) -> str:
        return os.environ.get(self.cfg.api_key_env, "") or "EMPTY"

    def redact(self, text: str) -> str:
        """Error texts can quote request headers back; the key never reaches a row or a log."""
        key = os.environ.get(self.cfg.api_key_env, "")
        return text.replace(key, "[redacted]") if len(key) >= 4 else text

    def _http_client(self) -> Any:
        """aiohttp under the SDK when installed (`openai[aiohttp]`): ~40% less CPU per request
        than the default transport, which matters at hundreds of requests a second."""
        try:
            return self._openai.DefaultAioHttpClient(timeout=self.cfg.timeout_s)
        except (AttributeError, RuntimeError):
            return None

    def _client(self) -> Any:
        common = {
            "api_key": self._api_key(),
            "timeout": self.cfg.timeout_s,
            "max_retries": 0,
            "http_client": self._http_client(),
        }
        if self.cfg.azure_api_version:
            if not self.cfg.base_url:
                raise ConfigError(
                    f"model '{self.cfg.name}': Azure OpenAI (azure_api_version set) needs "
                    "`base_url`, the resource endpoint"
                )
            return self._openai.AsyncAzureOpenAI(
                azure_endpoint=self.cfg.base_url,
                api_version=self.cfg.azure_api_version,
                **common,
            )
        return self._openai.AsyncOpenAI(base_url=self.cfg.base_url, **common)

    async def _attempt(self, client: Any, request: ChatRequest) -> Completion:
        """One HTTP call; raises _Retryable for failures worth retrying.

        The body goes through the SDK client's `post` (auth, base URL, Azure deployment routing,
        timeouts, its error classes) as the request builder made it, and the answer is parsed
        here: the SDK's typed param transform and response models cost more CPU per request
        than the whole HTTP exchange, and a malformed body is classified as such.
        """
        openai = self._openai
        self.calls += 1
        start = time.perf_counter()
        if request.prompt is not None:
            path, body = "/completions", completion_body(request, self.cfg.model_id)
        else:
            path = "/chat/completions"
            body = chat_body(
                request,
                self.cfg.model_id,
                structured_output=self.cfg.structured_output,
                system_role=self.cfg.system_role,
            )
        try:
            data = json.loads(await client.post(path, body=body, cast_to=bytes))
        except openai.APIStatusError as e:
            reason = f"HTTP {e.status_code}: {str(e)[:300]}"
            if e.status_code in RETRYABLE_STATUS or e.status_code >= 500:
                raise _Retryable(reason, retry_after_seconds(e.response.headers)) from e
            return Completion(text=None, error=reason, latency_s=time.perf_counter() - start)
        except (openai.APITimeoutError, openai.APIConnectionError) as e:
            raise _Retryable(f"{type(e).__name__}: {e}") from e
        except ValueError as e:  # the body is not JSON
            raise _Retryable(f"malformed response: {e}") from e
        try:
            text, finish_reason, usage = parse_response(data, chat=request.prompt is None)
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise _Retryable(f"malformed response: {type(e).__name__}: {e}") from e
        return Completion(
            text=text,
            latency_s=time.perf_counter() - start,
            prompt_tokens=usage[0],
            completion_tokens=usage[1],
            extra={"finish_reason": finish_reason},
        )

    async def _one(self, client: Any, request: ChatRequest, limit: asyncio.Semaphore) -> Completion:
        """A request with its retries; the semaphore is held only while a call is in flight."""
        started = time.perf_counter()
        reasons: list[str] = []
        for attempt in range(self.cfg.max_retries + 1):
            async with limit:
                try:
                    completion = await self._attempt(client, request)
                except _Retryable as e:
                    reasons.append(e.reason)
                    wait = e.retry_after
                else:
                    completion.attempts = attempt + 1
                    if completion.error is not None:
                        completion.error = self.redact(completion.error)
                    return completion
            if attempt < self.cfg.max_retries:
                if wait is None:
                    wait = backoff_seconds(
                        attempt, self.cfg.backoff_s, self.cfg.max_backoff_s, self._rng
                    )
                await asyncio.sleep(min(wait, self.cfg.max_backoff_s))
        return Completion(
            text=None,
            error=self.redact(
                f"gave up after {len(reasons)} attempts; last: {reasons[-1]}"
                if reasons
                else "no attempt made"
            ),
            attempts=len(reasons),
            latency_s=time.perf_counter() - started,
        )

    def complete(self, request: ChatRequest) -> Completion:
        return next(iter(self.complete_many([request])))[1]

    def complete_many(
        self, requests: Iterable[ChatRequest]
    ) -> Iterator[tuple[ChatRequest, Completion]]:
        """Run requests concurrently on an event loop in a worker thread; yield as they finish.

        Closing the iterator early (an exception in the consumer) cancels what is in flight.
        """
        pending = list(requests)
        if not pending:
            return
        results: queue.SimpleQueue[tuple[ChatRequest, Completion] | BaseException | None] = (
            queue.SimpleQueue()
        )
        stop = threading.Event()
        loop_ready: list[asyncio.AbstractEventLoop] = []
        slots: list[asyncio.Semaphore] = []

        async def run_all() -> None:
            limit = asyncio.Semaphore(self.cfg.concurrency)
            # A slot is held from a request's start until the consumer has recorded its row, so
            # at most `concurrency` items are ever started-but-unrecorded: a crash loses no more.
            slots.append(asyncio.Semaphore(self.cfg.concurrency))
            loop_ready.append(asyncio.get_running_loop())
            client = self._client()

            async def worker(r: ChatRequest) -> None:
                await slots[0].acquire()
                results.put((r, await self._one(client, r, limit)))

            tasks = [asyncio.ensure_future(worker(r)) for r in pending]
            try:
                await asyncio.gather(*tasks)
            finally:
                for task in tasks:
                    task.cancel()
                await client.close()

        def thread_main() -> None:
            try:
                asyncio.run(run_all())
            except asyncio.CancelledError:
                pass
            except BaseException as e:  # surfaced in the consumer thread, never swallowed
                if not stop.is_set():
                    results.put(e)
            finally:
                results.put(None)

        thread = threading.Thread(target=thread_main, name="openai-backend", daemon=True)
        thread.start()
        try:
            while (item := results.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                yield item  # returns once the consumer has recorded the row
                with contextlib.suppress(RuntimeError):  # the loop is gone: nobody is waiting
                    loop_ready[0].call_soon_threadsafe(slots[0].release)
        finally:
            stop.set()
            if thread.is_alive() and loop_ready:
                loop = loop_ready[0]
                loop.call_soon_threadsafe(_cancel_all, loop)
            thread.join(timeout=10)


def _cancel_all(loop: asyncio.AbstractEventLoop) -> None:
    for task in asyncio.all_tasks(loop):
        task.cancel()
