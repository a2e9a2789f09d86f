"""A fault-injecting OpenAI-compatible server for testing retries, resume and throughput.

    python -m tests.support.fault_server --port 8123 --latency 0.2 --fail-rate 0.3

Answers `/v1/chat/completions` and `/v1/completions` after `--latency` seconds with a
deterministic answer derived from the request (the same request always gets the same text), so
runs can be compared byte for byte. With `--fail-rate p` a request fails with probability p,
as one of `--faults` (429 with Retry-After, 500, a timeout that outlasts the client, or a 200
whose body is malformed JSON). Whether attempt n of a given request fails is a function of
(seed, request, n), so a run's faults are reproducible whatever the concurrency.

The `echo` fault (only when named in `--faults`) answers 401 or 500, alternately, with a body
that quotes the request's API key back in one of `key_echo.ECHO_ENCODINGS`, cycling through
them (or through `--echo-encodings`): the secrets tests check that no encoding of it reaches
anything a run writes.

With `--strict-schema api` (or `fine_tuned`) a chat request whose `response_format` is a
strict `json_schema` the OpenAI API would refuse gets the API's 400 (`strict_schema`);
`--refuse-keywords` refuses further keywords, as a stricter model would. `--answer` replaces
every answer's text with the given one (a judge output to script).

`GET /stats` returns counters; `POST /control` changes settings at run time (JSON body with any
of the option names) and `POST /reset` zeroes counters. Loopback use only.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any, cast

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tests.support.key_echo import ECHO_ENCODINGS, echo_body
from tests.support.strict_schema import StrictRules, strict_schema_error

FAULT_KINDS = ("429", "500", "timeout", "garbage")  # the default mix
KNOWN_FAULTS = (*FAULT_KINDS, "echo")  # echo: the API key quoted back, only when asked for


@dataclass
class FaultSettings:
    latency: float = 0.0
    fail_rate: float = 0.0
    faults: list[str] = field(default_factory=lambda: list(FAULT_KINDS))
    retry_after: float = 0.1
    timeout_sleep: float = 30.0
    seed: int = 0
    require_key: str | None = None
    echo_auth_in_errors: bool = False
    model: str = "fault-model"
    strict_schema: str = "off"  # off | api | fine_tuned
    refuse_keywords: list[str] = field(default_factory=list)
    answer: str | None = None
    echo_encodings: list[str] = field(default_factory=lambda: list(ECHO_ENCODINGS))


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def answer_text(body: dict[str, Any]) -> str:
    """The deterministic answer to a request body (ignores nothing that changes the request)."""
    key = _digest(body.get("messages"), body.get("prompt"), body.get("model"), body.get("seed"))
    if body.get("response_format"):
        return json.dumps({"Score": int(key[0], 16) % 3, "Justification": f"id {key[:8]}"})
    return f"answer {key[:16]}"


class FaultState:
    def __init__(self, settings: FaultSettings) -> None:
        self.settings = settings
        self.attempts: Counter[str] = Counter()
        self.stats: Counter[str] = Counter()
        self.in_flight = 0

    def decide(self, body: dict[str, Any]) -> str | None:
        """The fault for this attempt of this request, or None to answer normally."""
        s = self.settings
        if s.fail_rate <= 0 or not s.faults:
            return None  # fault-free: no bookkeeping, the server stays cheap under load
        request_key = _digest(body)
        attempt = self.attempts[request_key]
        self.attempts[request_key] += 1
        draw = int(_digest(s.seed, request_key, attempt)[:12], 16) / float(16**12)
        if draw >= s.fail_rate:
            return None
        return s.faults[int(draw / s.fail_rate * len(s.faults)) % len(s.faults)]


def create_app(settings: FaultSettings) -> Starlette:
    return Starlette(routes=_routes(FaultState(settings)))


def _routes(state: FaultState) -> list[Route]:
    """The server's endpoints, all sharing one state."""

    async def generate(request: Request) -> Response:
        state.in_flight += 1
        state.stats["max_in_flight"] = max(state.stats["max_in_flight"], state.in_flight)
        try:
            return await _answer(state, request)
        finally:
            state.in_flight -= 1

    async def models(request: Request) -> Response:
        return JSONResponse({"object": "list", "data": [{"id": state.settings.model}]})

    async def stats(request: Request) -> Response:
        return JSONResponse({**state.stats, "settings": asdict(state.settings)})

    async def reset(request: Request) -> Response:
        state.stats.clear()
        state.attempts.clear()
        return JSONResponse({"ok": True})

    async def control(request: Request) -> Response:
        update = await request.json()
        names = {f.name for f in fields(FaultSettings)}
        unknown = set(update) - names
        if unknown:
            return _error(400, f"unknown settings {sorted(unknown)}; known: {sorted(names)}")
        for name, value in update.items():
            setattr(state.settings, name, value)
        return JSONResponse(asdict(state.settings))

    return [
        Route("/v1/chat/completions", generate, methods=["POST"]),
        Route("/v1/completions", generate, methods=["POST"]),
        Route("/v1/models", models, methods=["GET"]),
        Route("/stats", stats, methods=["GET"]),
        Route("/reset", reset, methods=["POST"]),
        Route("/control", control, methods=["POST"]),
    ]


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:

    body = {"error": {"message": message, "type": "fault_injected", "code": status}}
    return JSONResponse(body, status_code=status, headers=headers)


def _schema_rejection(settings: FaultSettings, body: dict[str, Any]) -> Response | None:
    """The API's 400 for a strict response_format schema it would refuse."""

    if settings.strict_schema == "off":
        return None
    rules = cast(StrictRules, settings.strict_schema)
    message = strict_schema_error(
        body.get("response_format"), rules, frozenset(settings.refuse_keywords)
    )
    if message is None:
        return None
    detail = {
        "message": message,
        "type": "invalid_request_error",
        "param": "response_format",
        "code": None,
    }
    return JSONResponse({"error": detail}, status_code=400)


async def _answer(state: FaultState, request: Request) -> Response:
    """One attempt: checked (key, JSON, schema), delayed, then a fault or a completion."""
    s = state.settings
    state.stats["requests"] += 1
    auth = request.headers.get("authorization", "")
    if s.require_key is not None and auth != f"Bearer {s.require_key}":
        state.stats["401"] += 1
        detail = f" (got {auth!r})" if s.echo_auth_in_errors else ""
        return _error(401, f"Incorrect API key provided{detail}")
    try:
        body = await request.json()
    except json.JSONDecodeError:
        return _error(400, "request body is not JSON")
    rejection = _schema_rejection(s, body)
    if rejection is not None:
        state.stats["schema_rejected"] += 1
        return rejection
    fault = state.decide(body)
    if s.latency > 0:
        await asyncio.sleep(s.latency)
    if fault is not None:
        faulty = await _fault_response(state, fault, request)
        if faulty is not None:
            return faulty
    state.stats["ok"] += 1
    return _completion(state, request, body)


async def _fault_response(state: FaultState, fault: str, request: Request) -> Response | None:
    """The failed answer for a fault kind; None for a kind it does not know (answered)."""

    s = state.settings
    if fault == "429":
        state.stats["429"] += 1
        return _error(429, "rate limited", {"retry-after": f"{s.retry_after:g}"})
    if fault == "500":
        state.stats["500"] += 1
        return _error(500, "internal error")
    if fault == "timeout":
        state.stats["timeout"] += 1
        await asyncio.sleep(s.timeout_sleep)
        return _error(504, "too late")
    if fault == "echo":
        return _echo_response(state, request)
    if fault == "garbage":
        state.stats["garbage"] += 1
        broken = (
            '{"id": "x", "choices": [{"message": {"content": "cut'
            if state.stats["garbage"] % 2
            else '{"id": "x", "object": "chat.completion", "choices": []}'
        )
        return Response(broken, media_type="application/json")
    return None


def _echo_response(state: FaultState, request: Request) -> Response:
    """401 or 500, alternately, quoting the request's API key in the next encoding."""

    encodings = state.settings.echo_encodings or ECHO_ENCODINGS
    encoding = encodings[state.stats["echo"] % len(encodings)]
    status = 500 if state.stats["echo"] % 2 else 401
    state.stats["echo"] += 1
    state.stats[f"echo_{encoding}"] += 1
    key = request.headers.get("api-key") or request.headers.get("authorization", "")
    body = echo_body(key.removeprefix("Bearer "), encoding)
    return Response(body, status_code=status, media_type="application/json")


def _completion(state: FaultState, request: Request, body: dict[str, Any]) -> Response:
    """The deterministic (or scripted) answer, shaped as chat or text completion."""

    s = state.settings
    text = answer_text(body) if s.answer is None else s.answer
    prompt_words = len(json.dumps(body.get("messages") or body.get("prompt") or "").split())
    usage = {
        "prompt_tokens": prompt_words,
        "completion_tokens": len(text.split()),
        "total_tokens": prompt_words + len(text.split()),
    }
    if request.url.path.endswith("/chat/completions"):
        choice: dict[str, Any] = {
            "index": 0,
            "message": {"role": "assistant", "content": text},
            "finish_reason": "stop",
        }
        kind = "chat.completion"
    else:
        choice = {"index": 0, "text": text, "finish_reason": "stop"}
        kind = "text_completion"
    return JSONResponse(
        {
            "id": f"fault-{state.stats['requests']}",
            "object": kind,
            "created": 0,
            "model": body.get("model", s.model),
            "choices": [choice],
            "usage": usage,
        }
    )


def _listed(
    parser: argparse.ArgumentParser, value: str, known: Sequence[str], what: str
) -> list[str]:
    """The comma-separated names in `value`; one not in `known` is a usage error."""
    names = [n for n in value.split(",") if n]
    unknown = sorted(set(names) - set(known))
    if unknown:
        parser.error(f"unknown {what} {unknown}; known: {', '.join(known)}")
    return names


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8123)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per answer")
    parser.add_argument("--fail-rate", type=float, default=0.0, help="share of attempts failing")
    parser.add_argument("--faults", default=",".join(FAULT_KINDS), help="kinds to mix")
    parser.add_argument("--retry-after", type=float, default=0.1, help="Retry-After on 429")
    parser.add_argument("--timeout-sleep", type=float, default=30.0, help="a timeout's stall")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--require-key", default=None, help="answer 401 without this key")
    parser.add_argument("--echo-auth-in-errors", action="store_true")
    parser.add_argument(
        "--strict-schema",
        choices=("off", "api", "fine_tuned"),
        default="off",
        help="refuse strict response_format schemas as OpenAI's API does",
    )
    parser.add_argument("--refuse-keywords", default="", help="more schema keywords to refuse")
    parser.add_argument("--answer", default=None, help="the text of every answer")
    parser.add_argument(
        "--echo-encodings",
        default=",".join(ECHO_ENCODINGS),
        help="the key encodings the echo fault cycles through",
    )
    args = parser.parse_args(argv)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the fault server listens on loopback only")
    faults = _listed(parser, args.faults, KNOWN_FAULTS, "fault kinds")
    echo_encodings = _listed(parser, args.echo_encodings, ECHO_ENCODINGS, "echo encodings")
    settings = FaultSettings(
        latency=args.latency,
        fail_rate=args.fail_rate,
        faults=faults,
        retry_after=args.retry_after,
        timeout_sleep=args.timeout_sleep,
        seed=args.seed,
        require_key=args.require_key,
        echo_auth_in_errors=args.echo_auth_in_errors,
        strict_schema=args.strict_schema,
        refuse_keywords=[k for k in args.refuse_keywords.split(",") if k],
        answer=args.answer,
        echo_encodings=echo_encodings,
    )
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        timeout_keep_alive=30,
    )


if __name__ == "__main__":
    main()
