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
variable: in `prepare` (the generate stage calls it before it writes anything) and in `generate`.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from typing import Any

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.backends.openai_http import CallFailed, Transport, make_transport
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
    ) -> tuple[ChatRequest, Completion]:
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
                    return request, Completion(
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
                return request, completion
            if attempt < self.cfg.max_retries:
                if wait is None:
                    wait = backoff_seconds(
                        attempt, self.cfg.backoff_s, self.cfg.max_backoff_s, self._rng
                    )
                await asyncio.sleep(min(wait, self.cfg.max_backoff_s))
        return request, Completion(
            text=None,
            error=self.redact(f"gave up after {len(reasons)} attempts; last: {reasons[-1]}"),
            attempts=len(reasons),
            latency_s=time.perf_counter() - started,
        )

    async def generate(
        self, requests: Sequence[ChatRequest]
    ) -> AsyncIterator[tuple[ChatRequest, Completion]]:
        """Yield results as they finish. A request starts only once an earlier one has been
        taken by the caller, so at most the pool's capacity are ever started but unrecorded: a
        crash loses no more. Closing early cancels what is in flight."""
        pending = deque(requests)
        if not pending:
            return
        self.check_api_key()
        pool = self.last_pool = ServerPool(
            self._servers, self.cfg.server_cooldown_s, self.cfg.max_backoff_s
        )
        transport = make_transport(self.cfg, self._api_key(), self.redact)
        finished: asyncio.Queue[asyncio.Task[tuple[ChatRequest, Completion]]] = asyncio.Queue()
        running: set[asyncio.Task[tuple[ChatRequest, Completion]]] = set()

        def start() -> None:
            task = asyncio.ensure_future(self._one(transport, pool, pending.popleft()))
            task.add_done_callback(finished.put_nowait)
            running.add(task)

        try:
            for _ in range(min(pool.capacity, len(pending))):
                start()
            while running:
                task = await finished.get()
                running.discard(task)
                try:
                    result = task.result()
                except Exception as e:  # unexpected: its message may quote the key
                    raise _scrubbed(e, self.redact) from None
                yield result
                if pending:
                    start()
        finally:
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)
            await transport.close()


def _scrubbed(error: Exception, redact: Callable[[str], str]) -> Exception:
    """An unexpected error, with the key gone from its message."""
    message = str(error)
    clean = redact(message)
    if clean == message:
        return error
    return RuntimeError(f"{type(error).__name__}: {clean}")
