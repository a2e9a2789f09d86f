"""A small HTTP/1.1 client on asyncio's own transports: POST a body, get status, headers and
body back, over keep-alive connections kept per server.

It does only what an OpenAI-compatible server needs (Content-Length or chunked bodies, gzip,
TLS with the system's certificates) and costs about half the CPU a request of a general client
(bench/generate_throughput.py), which decides the rate a generate run reaches on a few cores.
Connection failures raise `OSError`, a body that is not HTTP raises `MalformedResponse`, and
the deadline raises `asyncio.TimeoutError`; the caller classifies them.
"""

from __future__ import annotations

import asyncio
import ssl
import time
import zlib
from dataclasses import dataclass
from urllib.parse import urlsplit

IDLE_S = 4.0  # a connection idle longer is not reused: servers close theirs after about 5 s


class MalformedResponse(Exception):
    """The server's answer is not HTTP/1.1 as this client reads it."""


@dataclass(frozen=True)
class Response:
    status: int
    headers: dict[str, str]  # names lower-cased
    body: bytes


@dataclass(frozen=True)
class Origin:
    """Where a URL's requests go: scheme, host, port and the path before the route."""

    tls: bool
    host: str
    port: int
    path: str

    @classmethod
    def of(cls, url: str) -> Origin:
        parts = urlsplit(url)
        tls = parts.scheme == "https"
        port = parts.port or (443 if tls else 80)
        return cls(tls, parts.hostname or "", port, parts.path.rstrip("/"))

    @property
    def authority(self) -> str:
        """The Host header: the port only where it is not the scheme's own."""
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 address
        return host if self.port == (443 if self.tls else 80) else f"{host}:{self.port}"


class _Connection(asyncio.Protocol):
    """One keep-alive connection: one exchange at a time, its answer parsed as bytes arrive."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.idle_since = time.monotonic()
        self.reusable = True
        self._buffer = bytearray()
        self._answer: asyncio.Future[Response] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if self._answer is not None and not self._answer.done():
            try:
                response = _parse(self._buffer, at_eof=False)
            except MalformedResponse as e:
                self._answer.set_exception(e)
                return
            if response is not None:
                self._answer.set_result(response)

    def connection_lost(self, exc: Exception | None) -> None:
        self.reusable = False
        if self._answer is None or self._answer.done():
            return
        try:
            response = _parse(self._buffer, at_eof=True) if self._buffer else None
        except MalformedResponse as e:
            self._answer.set_exception(e)
            return
        if response is None:
            error = ConnectionResetError("the server closed the connection before answering")
            self._answer.set_exception(exc or error)
        else:
            self._answer.set_result(response)

    async def exchange(self, request: bytes, deadline: float) -> Response:
        """Send `request` and wait for its answer until the loop's clock reads `deadline`."""
        if self.transport is None or self.transport.is_closing():
            raise ConnectionResetError("the connection is closed")
        loop = asyncio.get_running_loop()
        self._buffer.clear()
        answer = self._answer = loop.create_future()
        timer = loop.call_at(deadline, _expire, answer)
        self.transport.write(request)
        try:
            response = await answer
        finally:
            timer.cancel()
        self._answer = None
        if response.headers.get("connection", "").lower() == "close":
            self.reusable = False
        self.idle_since = time.monotonic()
        return response

    @property
    def answered_nothing(self) -> bool:
        return not self._buffer

    @property
    def idle(self) -> bool:
        return self._answer is None

    def close(self) -> None:
        self.reusable = False
        if self.transport is not None:
            self.transport.close()


def _expire(answer: asyncio.Future[Response]) -> None:
    if not answer.done():
        answer.set_exception(asyncio.TimeoutError())


def _parse(buffer: bytearray, at_eof: bool) -> Response | None:
    """The response in `buffer`, or None while it is incomplete."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = bytes(buffer[:end]).decode("latin-1").split("\r\n")
    version, _, rest = lines[0].partition(" ")
    if not version.startswith("HTTP/1.") or not rest[:3].isdigit():
        raise MalformedResponse(f"not an HTTP/1.1 status line: {lines[0][:80]!r}")
    status = int(rest[:3])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if 100 <= status < 200:  # an interim answer: the real one follows
        del buffer[: end + 4]
        return _parse(buffer, at_eof)
    body = _body(memoryview(buffer)[end + 4 :], headers, at_eof)
    if body is None:
        return None
    encoding = headers.get("content-encoding", "identity")
    if encoding in ("gzip", "deflate"):
        body = zlib.decompress(body, 47)  # 47: gzip or zlib header, told apart by the data
    return Response(status, headers, body)


def _body(data: memoryview, headers: dict[str, str], at_eof: bool) -> bytes | None:
    if "chunked" in headers.get("transfer-encoding", ""):
        return _dechunked(bytes(data))
    length = headers.get("content-length")
    if length is None:
        return bytes(data) if at_eof else None  # read until the server closes
    if not length.isdigit():
        raise MalformedResponse(f"bad Content-Length {length!r}")
    return bytes(data[: int(length)]) if len(data) >= int(length) else None


def _dechunked(data: bytes) -> bytes | None:
    parts: list[bytes] = []
    at = 0
    while True:
        line_end = data.find(b"\r\n", at)
        if line_end < 0:
            return None
        size_text = data[at:line_end].split(b";")[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise MalformedResponse(f"bad chunk size {size_text[:20]!r}") from None
        if size == 0:
            return b"".join(parts) if data.find(b"\r\n", line_end + 2) >= 0 else None
        if len(data) < line_end + 2 + size + 2:
            return None
        parts.append(data[line_end + 2 : line_end + 2 + size])
        at = line_end + 2 + size + 2


class ConnectionPool:
    """Keep-alive connections by origin; a request waits at most `timeout_s` in all."""

    def __init__(self, headers: dict[str, str], timeout_s: float) -> None:
        self._headers = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        self._timeout_s = timeout_s
        self._idle: dict[Origin, list[_Connection]] = {}
        self._heads: dict[tuple[Origin, str], bytes] = {}  # a request's bytes up to its length
        self._tls: ssl.SSLContext | None = None

    async def post(self, origin: Origin, target: str, body: bytes) -> Response:
        """POST `body` to `target` (path and query) at `origin`. A reused connection that the
        server closed while idle is replaced once, as it never saw the request."""
        deadline = asyncio.get_running_loop().time() + self._timeout_s
        head = self._heads.get((origin, target))
        if head is None:
            head = self._heads[origin, target] = (
                f"POST {target} HTTP/1.1\r\nHost: {origin.authority}\r\n"
                f"{self._headers}Content-Length: "
            ).encode("latin-1")
        request = b"%s%d\r\n\r\n%s" % (head, len(body), body)
        connection, reused = await self._connection(origin, deadline)
        try:
            return await self._exchange(origin, connection, request, deadline)
        except OSError:
            if not (reused and connection.answered_nothing):
                raise
        connection, _ = await self._connection(origin, deadline, reuse=False)
        return await self._exchange(origin, connection, request, deadline)

    async def _exchange(
        self, origin: Origin, connection: _Connection, request: bytes, deadline: float
    ) -> Response:
        try:
            return await connection.exchange(request, deadline)
        finally:  # kept only when the answer was read whole
            if connection.reusable and connection.idle:
                self._idle.setdefault(origin, []).append(connection)
            else:
                connection.close()

    async def _connection(
        self, origin: Origin, deadline: float, reuse: bool = True
    ) -> tuple[_Connection, bool]:
        idle = self._idle.get(origin, [])
        now = time.monotonic()
        while reuse and idle:
            connection = idle.pop()
            if connection.reusable and now - connection.idle_since < IDLE_S:
                return connection, True
            connection.close()
        tls = None
        if origin.tls:
            self._tls = tls = self._tls or ssl.create_default_context()
        opening = asyncio.get_running_loop().create_connection(
            _Connection, origin.host, origin.port, ssl=tls
        )
        remaining = max(deadline - asyncio.get_running_loop().time(), 0.0)
        _, connection = await asyncio.wait_for(opening, remaining)
        return connection, False

    def close(self) -> None:
        for connections in self._idle.values():
            for connection in connections:
                connection.close()
        self._idle.clear()
