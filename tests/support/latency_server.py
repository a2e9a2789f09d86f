"""A lean OpenAI-compatible server for throughput drills: every completion answers after exactly
`--latency` seconds, and nothing else costs it much CPU.

    python -m tests.support.latency_server --port 8123 --latency 0.05

The fault server (Starlette on uvicorn) spends about 0.4 ms of CPU a request on this project's
2-core machines, more than the client it is meant to measure, so at a thousand requests a
second its own queue, not the client, decides how far a run falls behind the ideal. This one
reads HTTP/1.1 keep-alive requests straight off asyncio's streams, on an event loop that waits
with select(2): its timeout is in microseconds, where epoll's is in whole milliseconds rounded up,
which made every answer up to a millisecond late (0.95 ms at the median, about 0.5% of a 200 ms
latency and 2% of a 50 ms one). It answers
`POST /v1/chat/completions` and `/v1/completions` with the fault server's deterministic answer,
`GET /v1/models`, and `GET /stats` (`requests`, `ok`, `max_in_flight`). Loopback use only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import selectors
from collections import Counter

from tests.support.fault_server import answer_text


class LatencyServer:
    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.stats: Counter[str] = Counter()
        self.in_flight = 0

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                method, target, _ = head.split(b" ", 2)
                length = 0
                for line in head.lower().split(b"\r\n"):
                    if line.startswith(b"content-length:"):
                        length = int(line[15:])
                body = await reader.readexactly(length)
                status, answer = await self.answer(method, target.decode(), body)
                payload = json.dumps(answer).encode()
                writer.write(
                    b"HTTP/1.1 %d OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (status, len(payload), payload)
                )
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def answer(self, method: bytes, target: str, body: bytes) -> tuple[int, object]:
        if method == b"GET" and target == "/stats":
            return 200, dict(self.stats)
        if method == b"GET":
            return 200, {"object": "list", "data": [{"id": "latency-model"}]}
        self.stats["requests"] += 1
        self.in_flight += 1
        self.stats["max_in_flight"] = max(self.stats["max_in_flight"], self.in_flight)
        try:
            request = json.loads(body)
            await asyncio.sleep(self.latency)
        finally:
            self.in_flight -= 1
        self.stats["ok"] += 1
        text = answer_text(request)
        if target.endswith("/chat/completions"):
            choice: dict[str, object] = {"message": {"role": "assistant", "content": text}}
        else:
            choice = {"text": text}
        usage = {"prompt_tokens": 10, "completion_tokens": 4, "total_tokens": 14}
        return 200, {"choices": [{**choice, "index": 0, "finish_reason": "stop"}], "usage": usage}


async def main(host: str, port: int, latency: float) -> None:
    server = await asyncio.start_server(LatencyServer(latency).serve, host, port, backlog=1024)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args()
    loop = asyncio.SelectorEventLoop(selectors.SelectSelector())
    loop.run_until_complete(main(args.host, args.port, args.latency))
