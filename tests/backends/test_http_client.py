"""Parakh's HTTP/1.1 client against scripted servers on loopback: each server writes exactly the
bytes a test gives it, so every way a real server frames an answer is read as it is sent."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import Awaitable, Callable

import pytest

from parakh.backends.http_client import ConnectionPool, MalformedResponse, Origin, Response

Reply = Callable[[int, bytes], bytes]  # (request number on this server, request) -> bytes
BODY = json.dumps({"choices": [{"text": "ok"}]}).encode()


def _ok(extra: bytes = b"") -> bytes:
    return b"HTTP/1.1 200 OK\r\n%sContent-Length: %d\r\n\r\n%s" % (extra, len(BODY), BODY)


async def _serve(reply: Reply, client: Callable[[Origin], Awaitable[object]]) -> list[bytes]:
    """Run `client` against a server answering each request with `reply`'s bytes (after them, it
    closes the connection when `reply` ends its bytes with b"<close>"); the requests it read."""
    seen: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                request = head + await reader.readexactly(length)
                seen.append(request)
                answer = reply(len(seen), request)
                writer.write(answer.removesuffix(b"<close>"))
                await writer.drain()
                if answer.endswith(b"<close>"):
                    break
        except asyncio.IncompleteReadError:
            pass
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        await client(Origin.of(f"http://127.0.0.1:{port}/v1"))
    return seen


def _post_all(pool: ConnectionPool, n: int, into: list[Response]) -> Callable[[Origin], Awaitable]:
    async def client(origin: Origin) -> None:
        for _ in range(n):
            into.append(await pool.post(origin, origin.path + "/completions", b'{"a": 1}'))
        pool.close()

    return client


def _run(reply: Reply, n: int = 1, timeout_s: float = 5.0) -> tuple[list[Response], list[bytes]]:
    responses: list[Response] = []
    pool = ConnectionPool({"Authorization": "Bearer k"}, timeout_s)
    seen = asyncio.run(_serve(reply, _post_all(pool, n, responses)))
    return responses, seen


def test_the_request_carries_route_headers_and_body_and_the_answer_is_read_whole() -> None:
    responses, seen = _run(lambda n, r: _ok(b"Retry-After: 3\r\n"))
    assert seen[0].startswith(b"POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1:")
    assert b"\r\nAuthorization: Bearer k\r\n" in seen[0] and seen[0].endswith(b'{"a": 1}')
    assert (responses[0].status, responses[0].body) == (200, BODY)
    assert responses[0].headers["retry-after"] == "3"  # names lower-cased


def test_keep_alive_sends_every_request_over_one_connection() -> None:
    connections = []

    def reply(n: int, request: bytes) -> bytes:
        connections.append(n)
        return _ok()

    responses, seen = _run(reply, n=3)
    assert [r.body for r in responses] == [BODY] * 3 and connections == [1, 2, 3]


def test_a_chunked_body_with_extensions_and_trailers_is_joined() -> None:
    chunked = b"5;x=y\r\n" + BODY[:5] + b"\r\n%x\r\n" % (len(BODY) - 5) + BODY[5:] + b"\r\n0\r\n"
    answer = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked + b"T: 1\r\n\r\n"
    responses, _ = _run(lambda n, r: answer, n=2)
    assert [r.body for r in responses] == [BODY, BODY]


def test_a_gzip_body_is_decompressed() -> None:
    packed = gzip.compress(BODY)
    answer = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(
        packed
    )
    responses, _ = _run(lambda n, r: answer + packed)
    assert responses[0].body == BODY


def test_an_interim_100_answer_is_skipped() -> None:
    responses, _ = _run(lambda n, r: b"HTTP/1.1 100 Continue\r\n\r\n" + _ok())
    assert (responses[0].status, responses[0].body) == (200, BODY)


def test_a_body_without_length_ends_where_the_server_closes() -> None:
    responses, _ = _run(lambda n, r: b"HTTP/1.1 200 OK\r\n\r\n" + BODY + b"<close>")
    assert responses[0].body == BODY


def test_connection_close_opens_a_new_connection_for_the_next_request() -> None:
    responses, seen = _run(lambda n, r: _ok(b"Connection: close\r\n") + b"<close>", n=2)
    assert [r.body for r in responses] == [BODY, BODY] and len(seen) == 2


def test_a_kept_connection_the_server_dropped_is_replaced_once() -> None:
    """The server closes after answering, without saying so: the next request finds the
    connection dead before any answer and goes over a new one."""
    responses, seen = _run(lambda n, r: _ok() + b"<close>", n=3)
    assert [r.status for r in responses] == [200, 200, 200] and len(seen) == 3


def test_a_connection_dropped_mid_answer_is_an_error_not_a_retry() -> None:
    with pytest.raises(ConnectionError):
        _run(lambda n, r: b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n{<close>")


def test_an_answer_that_is_not_http_is_malformed() -> None:
    with pytest.raises(MalformedResponse, match="not an HTTP/1.1 status line"):
        _run(lambda n, r: b"SSH-2.0-OpenSSH\r\n\r\n")
    with pytest.raises(MalformedResponse, match="bad chunk size"):
        _run(lambda n, r: b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")


def test_no_answer_within_the_timeout_raises_timeout() -> None:
    with pytest.raises(asyncio.TimeoutError):
        _run(lambda n, r: b"HTTP/1.1 200 OK\r\n", timeout_s=0.3)


def test_a_refused_connection_is_an_os_error() -> None:
    async def client() -> None:
        pool = ConnectionPool({}, 2.0)
        await pool.post(Origin.of("http://127.0.0.1:9/v1"), "/v1/completions", b"{}")

    with pytest.raises(OSError):
        asyncio.run(client())


def test_origin_of_a_url_fills_the_default_ports() -> None:
    assert Origin.of("https://api.openai.com/v1/") == Origin(True, "api.openai.com", 443, "/v1")
    assert Origin.of("http://localhost:8000") == Origin(False, "localhost", 8000, "")
    assert Origin.of("https://api.openai.com/v1").authority == "api.openai.com"
    assert Origin.of("http://[::1]:8000/v1").authority == "[::1]:8000"
