"""The HTTP exchange of the OpenAI-compatible backend: one call, classified.

Two transports send the same JSON body the request builder made:
- `HttpTransport` posts it over keep-alive connections of `http_client`, with the documented
  REST routes and auth headers (`Authorization: Bearer`, or Azure's `api-key` header,
  `/openai/deployments/<deployment>` route and `api-version` query). It costs a fraction of the
  CPU per request of the SDK, which matters at hundreds of requests a second.
- `SdkTransport` goes through the `openai` SDK's async client (`post`), one client per server.

Either way a call ends as parsed JSON, or as `CallFailed` saying why, whether another try is
worth it, how long the server asked us to wait, and what the failure says of the server's health.
Every reason is scrubbed of the API key (`secrets.SecretScrubber`, whole text first, then cut).
"""

from __future__ import annotations

import asyncio
import email.utils
import importlib
import json
import time
import zlib
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import urlencode

from parakh import __version__
from parakh.backends.http_client import ConnectionPool, MalformedResponse, Origin
from parakh.backends.server_pool import Outcome
from parakh.backends.structured_outputs import is_schema_rejection
from parakh.config.model import OpenAIModel
from parakh.errors import ConfigError, MissingDependencyError
from parakh.secrets import SecretScrubber

RETRYABLE_STATUS = frozenset({408, 409, 425, 429})
INSTALL = "pip install 'parakh[openai]'"
REASON_CHARS = 300  # of a server's error body kept in a row
Scrub = Callable[[str], str]


class CallFailed(Exception):
    """A call that gave no usable answer."""

    def __init__(
        self,
        reason: str,
        retryable: bool = True,
        retry_after: float | None = None,
        outcome: Outcome = Outcome.ANSWERED,
        schema_rejected: bool = False,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable
        self.retry_after = retry_after
        self.outcome = outcome
        self.schema_rejected = schema_rejected  # a 400 refusing the response_format schema


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


def status_failure(status: int, text: str, headers: Any, scrub: Scrub) -> CallFailed:
    """An HTTP error answer: 408/409/425/429 and 5xx are worth another try, other 4xx are not;
    a 400 that refuses the response_format schema is told apart (the run cannot go on).
    The body is scrubbed whole before it is cut: a key crossing the cut would survive."""
    retryable = status in RETRYABLE_STATUS or status >= 500
    return CallFailed(
        f"HTTP {status}: {scrub(text)[:REASON_CHARS]}",
        retryable=retryable,
        retry_after=retry_after_seconds(headers) if retryable else None,
        schema_rejected=is_schema_rejection(status, text),
    )


def parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError as e:
        raise CallFailed(f"malformed response: the body is not JSON ({e})") from e


class Transport(Protocol):
    async def post(self, base_url: str, path: str, body: dict[str, Any]) -> Any: ...

    async def close(self) -> None: ...


def _check_azure(cfg: OpenAIModel) -> None:
    if cfg.azure_api_version and not (cfg.base_url or cfg.servers):
        raise ConfigError(
            f"model '{cfg.name}': Azure OpenAI (azure_api_version set) needs `base_url`, "
            "the resource endpoint"
        )


def _timed_out(timeout_s: float, note: str = "") -> CallFailed:
    return CallFailed(f"timeout: no answer within {timeout_s:g} s{note}", outcome=Outcome.TIMED_OUT)


def _unreachable(error: Exception, scrub: Scrub) -> CallFailed:
    """Refused, reset, dropped: the server is not there."""
    return CallFailed(
        scrub(f"connection error: {type(error).__name__}: {error}"), outcome=Outcome.UNREACHABLE
    )


class HttpTransport:
    """Posts over Parakh's own keep-alive HTTP/1.1 connections (`http_client`)."""

    def __init__(self, cfg: OpenAIModel, api_key: str, scrub: Scrub) -> None:
        _check_azure(cfg)
        self.cfg = cfg
        self._scrub = scrub
        azure = cfg.azure_api_version
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"parakh/{__version__}",
            **({"api-key": api_key} if azure else {"Authorization": f"Bearer {api_key}"}),
        }
        self._query = f"?{urlencode({'api-version': azure})}" if azure else ""
        self._pool = ConnectionPool(headers, cfg.timeout_s)
        self._origins: dict[str, Origin] = {}

    def url(self, base_url: str, path: str) -> str:
        base = base_url.rstrip("/")
        if self.cfg.azure_api_version:
            if not base.endswith("/openai"):
                base += "/openai"
            return f"{base}/deployments/{self.cfg.model_id}{path}"
        return base + path

    async def post(self, base_url: str, path: str, body: dict[str, Any]) -> Any:
        origin = self._origins.get(base_url)
        if origin is None:
            origin = self._origins[base_url] = Origin.of(self.url(base_url, ""))
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        try:
            response = await self._pool.post(origin, origin.path + path + self._query, data)
        except asyncio.TimeoutError as e:
            raise _timed_out(self.cfg.timeout_s) from e
        except (MalformedResponse, zlib.error) as e:
            raise CallFailed(self._scrub(f"malformed response: {type(e).__name__}: {e}")) from e
        except OSError as e:
            raise _unreachable(e, self._scrub) from e
        if response.status >= 400:
            text = response.body.decode("utf-8", errors="replace")
            raise status_failure(response.status, text, response.headers, self._scrub)
        return parse_json(response.body)

    async def close(self) -> None:
        self._pool.close()


class SdkTransport:
    """Posts through the openai SDK's async client: one client per server."""

    def __init__(self, cfg: OpenAIModel, api_key: str, scrub: Scrub) -> None:
        _check_azure(cfg)
        try:
            self._openai = importlib.import_module("openai")
        except ImportError as e:
            raise MissingDependencyError("openai", INSTALL) from e
        self.cfg = cfg
        self._scrub = scrub
        self._api_key = api_key
        self._clients: dict[str, Any] = {}

    def _client(self, base_url: str) -> Any:
        client = self._clients.get(base_url)
        if client is not None:
            return client
        openai, cfg = self._openai, self.cfg
        try:  # aiohttp under the SDK when installed (`openai[aiohttp]`): less CPU per request
            http_client = openai.DefaultAioHttpClient(timeout=cfg.timeout_s)
        except (AttributeError, RuntimeError):
            http_client = None
        common = {
            "api_key": self._api_key,
            "timeout": cfg.timeout_s,
            "max_retries": 0,
            "http_client": http_client,
        }
        if cfg.azure_api_version:
            client = openai.AsyncAzureOpenAI(
                azure_endpoint=base_url, api_version=cfg.azure_api_version, **common
            )
        else:
            client = openai.AsyncOpenAI(base_url=base_url, **common)
        self._clients[base_url] = client
        return client

    async def post(self, base_url: str, path: str, body: dict[str, Any]) -> Any:
        """The body as the request builder made it, through the client's `post` (auth, base
        URL, Azure deployment routing); the answer is parsed here, not by the SDK's models."""
        openai = self._openai
        try:
            raw = await self._client(base_url).post(path, body=body, cast_to=bytes)
        except openai.APIStatusError as e:
            raise status_failure(e.status_code, str(e), e.response.headers, self._scrub) from e
        except openai.APITimeoutError as e:
            raise _timed_out(self.cfg.timeout_s, f" ({type(e).__name__})") from e
        except openai.APIConnectionError as e:
            raise _unreachable(e, self._scrub) from e
        return parse_json(raw)

    async def close(self) -> None:
        for client in self._clients.values():
            await client.close()
        self._clients.clear()


def make_transport(cfg: OpenAIModel, api_key: str, scrub: Scrub | None = None) -> Transport:
    """The model's transport; `scrub` cleans every failure reason (default: echoed auth
    headers only, for a caller that has no key to look for)."""
    scrub = scrub or SecretScrubber()
    if cfg.transport == "sdk":
        return SdkTransport(cfg, api_key, scrub)
    return HttpTransport(cfg, api_key, scrub)
