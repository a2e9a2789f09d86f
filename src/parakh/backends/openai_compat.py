"""Any OpenAI-compatible server: vLLM serve, llama.cpp server, hosted APIs, Azure OpenAI.

Requests run concurrently on one asyncio event loop, spread over the model's servers (one, or
several replicas of the model) with at most each server's `concurrency` in flight there. A 429,
a 5xx, a timeout, a dropped connection or an unparsable answer is retried with exponential
backoff and full jitter, waiting what `Retry-After` asks when the server says; a server that
stops answering is routed around at once (see `server_pool`); other 4xx are final at once.
After the retry budget an item becomes an error completion with its reason, except a 400 that
refuses the `response_format` schema: it would refuse every request alike, so the run stops
there with `SchemaRejectedError` instead of writing one error row per item. The API key is read
from the environment only, and scrubbed from every error text in any case or encoding
(`secrets.SecretScrubber`). A model whose server needs a key (any server that is not local, or
Azure) while `api_key_env` names an unset variable fails before any request, naming the
variable: in `prepare` (generate calls it before it writes anything) and in `complete_many`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.backends.openai_http import CallFailed, Transport, make_transport
from parakh.backends.openai_http import retry_after_seconds as retry_after_seconds
from parakh.backends.request_builder import chat_body, completion_body
from parakh.backends.server_pool import Outcome, ServerPool, ServerState
from parakh.backends.structured_outputs import SchemaRejectedError
from parakh.config.model import OpenAIModel
from parakh.secrets import require_api_key, scrubber_for


def parse_response(data: Any, chat: bool) -> tuple[str, str | None, tuple[int, int]]:
    """Text, finish reason and (prompt, completion) tokens of a (chat) completion body."""
    choice = data["choices"][0]
    text = choice["message"]["content"] if chat else choice["text"]
    if not isinstance(text, str):
        raise TypeError(f"the answer's text is {type(text).__name__}, not a string")
    usage = data.get("usage") or {}
    tokens = (int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0))
    finish_reason = choice.get("finish_reason")
    return text, None if finish_reason is None else str(finish_reason), tokens


def backoff_seconds(attempt: int, base: float, cap: float, rng: random.Random) -> float:
    """Exponential backoff with full jitter: uniform in [0, min(cap, base * 2**attempt)]."""
    return rng.uniform(0.0, min(cap, base * 2**attempt))


class OpenAIBackend(Backend):
    cfg: OpenAIModel

    def __init__(self, cfg: OpenAIModel) -> None:
        super().__init__(cfg)
        self._servers = [(s.base_url, s.concurrency or cfg.concurrency) for s in cfg.server_list()]
        # Fails now, with the install line, when the transport's package is missing.
        make_transport(cfg, self._api_key())
        self._rng = random.Random(cfg.sampling.seed)
        self.calls = 0  # HTTP attempts made, retries included
        self.last_pool: ServerPool | None = None  # the last run's servers, for reports and tests

    def _api_key(self) -> str:
        return os.environ.get(self.cfg.api_key_env, "") or "EMPTY"

    def prepare(self, question_ids: Collection[str]) -> None:
        self.check_api_key()

    def check_api_key(self) -> None:
        """A ConfigError naming `api_key_env` when it is unset and a server needs a key."""
        require_api_key(
            self.cfg.name,
            self.cfg.api_key_env,
            os.environ.get(self.cfg.api_key_env),
            (url for url, _ in self._servers),
            azure=self.cfg.azure_api_version is not None,
        )

    def redact(self, text: str) -> str:
        """Error texts can quote the key or request headers back, in any case or encoding; the
        key never reaches a row, a log or an exception message."""
        return scrubber_for((os.environ.get(self.cfg.api_key_env, ""),))(text)

    def _route(self, request: ChatRequest) -> tuple[str, dict[str, Any]]:
        if request.prompt is not None:
            return "/completions", completion_body(request, self.cfg.model_id)
        body = chat_body(
            request,
            self.cfg.model_id,
            structured_output=self.cfg.structured_output,
            system_role=self.cfg.system_role,
        )
        return "/chat/completions", body

    async def _attempt(
        self, transport: Transport, server: ServerState, request: ChatRequest
    ) -> Completion:
        """One HTTP call to one server; raises CallFailed when it gave no usable answer."""
        self.calls += 1
        start = time.perf_counter()
        path, body = self._route(request)
        data = await transport.post(server.url, path, body)
        try:
            text, finish_reason, usage = parse_response(data, chat=request.prompt is None)
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise CallFailed(f"malformed response: {type(e).__name__}: {e}") from e
        return Completion(
            text=text,
            latency_s=time.perf_counter() - start,
            prompt_tokens=usage[0],
            completion_tokens=usage[1],
            finish_reason=finish_reason,
        )

    async def _one(
        self, transport: Transport, pool: ServerPool, request: ChatRequest
    ) -> Completion:
        """A request with its retries; a server's slot is held only while a call is in flight.

        A server that stopped answering hands the request to another at once (an attempt is
        still counted); any other failure waits its backoff, or what Retry-After asked.
        """
        started = time.perf_counter()
        reasons: list[str] = []
        failed_on: ServerState | None = None
        for attempt in range(self.cfg.max_retries + 1):
            server = await pool.acquire(avoid=failed_on)
            try:
                completion = await self._attempt(transport, server, request)
            except CallFailed as e:
                await pool.release(server, e.outcome)
                where = f" ({server.url})" if len(pool.servers) > 1 else ""
                reasons.append(self.redact(e.reason) + where)
                if e.schema_rejected:
                    raise SchemaRejectedError(self.cfg.name, self.redact(e.reason)) from None
                if not e.retryable:
                    return Completion(
                        text=None,
                        error=self.redact(e.reason),
                        attempts=attempt + 1,
                        latency_s=time.perf_counter() - started,
                    )
                failed_on = server
                wait = e.retry_after
                if e.outcome is not Outcome.ANSWERED and pool.others_up(server):
                    wait = 0.0  # fail over now: another server is answering
            else:
                await pool.release(server, Outcome.ANSWERED)
                completion.attempts = attempt + 1
                return completion
            if attempt < self.cfg.max_retries:
                if wait is None:
                    wait = backoff_seconds(
                        attempt, self.cfg.backoff_s, self.cfg.max_backoff_s, self._rng
                    )
                await asyncio.sleep(min(wait, self.cfg.max_backoff_s))
        return Completion(
            text=None,
            error=self.redact(f"gave up after {len(reasons)} attempts; last: {reasons[-1]}"),
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
        pending = deque(requests)
        if not pending:
            return
        self.check_api_key()
        yield from _ConcurrentRun(self, pending).as_finished()


_Item = tuple[ChatRequest, Completion] | BaseException | None


class _ConcurrentRun:
    """One `complete_many` call: an event loop in a worker thread feeds a queue the caller reads.

    The loop and its slots are set by the worker thread once the loop runs; the caller reads
    them only after an item arrived (so they are set) or, when closing, checks for the loop.
    """

    def __init__(self, backend: OpenAIBackend, pending: deque[ChatRequest]) -> None:
        self.backend = backend
        self.pending = pending
        self.results: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        self.stop = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.slots: asyncio.Semaphore | None = None

    async def _run_all(self) -> None:
        backend = self.backend
        pool = ServerPool(
            backend._servers, backend.cfg.server_cooldown_s, backend.cfg.max_backoff_s
        )
        backend.last_pool = pool
        # A slot is held from a request's start until the consumer has recorded its row, so
        # at most `capacity` items are ever started-but-unrecorded: a crash loses no more.
        slots = self.slots = asyncio.Semaphore(pool.capacity)
        self.loop = asyncio.get_running_loop()
        transport = make_transport(backend.cfg, backend._api_key(), backend.redact)
        workers = [
            asyncio.ensure_future(self._worker(transport, pool, slots))
            for _ in range(min(pool.capacity, len(self.pending)))
        ]
        try:
            await asyncio.gather(*workers)
        finally:
            for task in workers:
                task.cancel()
            await transport.close()

    async def _worker(
        self, transport: Transport, pool: ServerPool, slots: asyncio.Semaphore
    ) -> None:
        while self.pending:
            await slots.acquire()
            if not self.pending:
                slots.release()
                return
            request = self.pending.popleft()
            self.results.put((request, await self.backend._one(transport, pool, request)))

    def _thread_main(self) -> None:
        try:
            asyncio.run(self._run_all())
        except asyncio.CancelledError:
            pass
        except BaseException as e:  # surfaced in the consumer thread, never swallowed
            if not self.stop.is_set():
                self.results.put(e)
        finally:
            self.results.put(None)

    def _release_slot(self) -> None:
        """Free the slot of the row the consumer has just recorded."""
        loop, slots = self.loop, self.slots
        if loop is None or slots is None:  # never: an item arrives only once both are set
            return
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody is waiting
            loop.call_soon_threadsafe(slots.release)

    def as_finished(self) -> Iterator[tuple[ChatRequest, Completion]]:
        thread = threading.Thread(target=self._thread_main, name="openai-backend", daemon=True)
        thread.start()
        try:
            while (item := self.results.get()) is not None:
                if isinstance(item, BaseException):
                    raise _scrubbed(item, self.backend.redact)
                yield item  # returns once the consumer has recorded the row
                self._release_slot()
        finally:
            self.stop.set()
            loop = self.loop
            if thread.is_alive() and loop is not None:
                # The thread may be past asyncio.run (loop closed) and about to exit: it puts
                # its final None after the loop closes, so a finished run can land here too.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_cancel_all, loop)
            thread.join(timeout=10)


def _scrubbed(error: BaseException, redact: Callable[[str], str]) -> BaseException:
    """An unexpected error from the event loop thread, with the key gone from its message."""
    message = str(error)
    clean = redact(message)
    if clean == message:
        return error
    return RuntimeError(f"{type(error).__name__}: {clean}")


def _cancel_all(loop: asyncio.AbstractEventLoop) -> None:
    for task in asyncio.all_tasks(loop):
        task.cancel()
