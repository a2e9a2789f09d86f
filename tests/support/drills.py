"""Load and fault drills of the generation path against the fault server on loopback.

Each drill runs requests exactly as the generate stage does (OpenAIBackend -> run_requests with
the SQLite response cache and the fsynced progress file) and returns the numbers the benches
write to bench/results/ and the tests assert on.
"""

from __future__ import annotations

import json
import os
import resource
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from parakh.backends.base import ChatRequest, Completion
from parakh.backends.cache import ResponseCache
from parakh.backends.openai_compat import OpenAIBackend
from parakh.backends.runner import run_requests
from parakh.config.model import OpenAIModel, Sampling
from tests.support.servers import ServerProcess, start_python_server


def drill_requests(n: int) -> list[ChatRequest]:
    return [
        ChatRequest(
            key=f"item-{i:05d}",
            messages=(("system", "Answer briefly."), ("user", f"Question number {i}?")),
            sampling=Sampling(temperature=0.0, max_tokens=32, seed=0),
        )
        for i in range(n)
    ]


def _row(request: ChatRequest, completion: Completion, request_hash: str) -> dict[str, Any]:
    return {
        "status": "ok" if completion.ok else "error",
        "response": completion.text,
        "error": completion.error,
        "attempts": completion.attempts,
    }


def server_stats(server: ServerProcess) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + "/stats", timeout=10) as response:
        stats: dict[str, Any] = json.load(response)
    return stats


def _model(server: ServerProcess, **settings: Any) -> OpenAIModel:
    return OpenAIModel.model_validate(
        {
            "name": "drill",
            "backend": "openai",
            "model_id": "drill-model",
            "base_url": server.base_url,
            **settings,
        }
    )


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def throughput_drill(
    n: int = 2000,
    latency_s: float = 0.2,
    concurrency: int = 32,
    workdir: Path | None = None,
    niceness: int | None = None,
    transport: str = "http",
) -> dict[str, Any]:
    """Wall time of n requests at a fixed server latency, against the ideal n*latency/c.

    `niceness` (e.g. -10, needs root) raises this process's scheduling priority, inherited by
    the server it starts, so that other work on a shared machine disturbs the timing less.
    """
    if niceness is not None:
        os.setpriority(os.PRIO_PROCESS, 0, niceness)
    lean_server = ["tests.support.latency_server", "--latency", str(latency_s)]
    with (
        tempfile.TemporaryDirectory(dir=workdir) as tmp,
        start_python_server(lean_server) as server,
    ):
        backend = OpenAIBackend(
            _model(server, concurrency=concurrency, timeout_s=30, transport=transport)
        )
        cache = ResponseCache(Path(tmp) / "cache.sqlite")
        requests = drill_requests(n)
        load_before = os.getloadavg()
        cpu = _cpu_seconds()
        start = time.perf_counter()
        rows = run_requests(
            backend, requests, cache, Path(tmp) / "progress.jsonl", _row, show_progress=False
        )
        wall = time.perf_counter() - start
        cpu = _cpu_seconds() - cpu
        stats = server_stats(server)
        cache.close()
    ideal = n * latency_s / concurrency
    return {
        "requests": n,
        "latency_s": latency_s,
        "concurrency": concurrency,
        "transport": transport,
        "ideal_wall_s": round(ideal, 3),
        "wall_s": round(wall, 3),
        "ratio_to_ideal": round(wall / ideal, 4),
        "ok": sum(r["status"] == "ok" for r in rows.values()),
        "rows": len(rows),
        "server_requests": stats.get("requests", 0),
        "server_max_in_flight": stats.get("max_in_flight", 0),
        "client_cpu_s": round(cpu, 3),
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        "niceness": os.getpriority(os.PRIO_PROCESS, 0),
    }


def _error_kind(error: str | None) -> str:
    text = error or ""
    for marker, kind in (
        ("HTTP 429", "429"),
        ("HTTP 5", "5xx"),
        ("timeout", "timeout"),
        ("malformed", "garbage"),
    ):
        if marker in text:
            return kind
    return "other"


def fault_drill(
    n: int = 1000,
    fail_rate: float = 0.3,
    latency_s: float = 0.02,
    concurrency: int = 32,
    first_max_retries: int = 1,
    rerun_max_retries: int = 5,
    seed: int = 0,
    workdir: Path | None = None,
) -> dict[str, Any]:
    """A run against a server failing `fail_rate` of attempts (429/500/timeout/garbage, mixed),
    with a small retry budget so that some items end as error rows; then a re-run as the stage
    does it (a fresh progress file, the same cache) with the default retry budget."""
    args = _fault_server_args(latency_s, fail_rate, seed)
    common = {"concurrency": concurrency, "timeout_s": 0.5, "backoff_s": 0.05, "max_backoff_s": 1.0}
    requests = drill_requests(n)
    with tempfile.TemporaryDirectory(dir=workdir) as tmp, start_python_server(args) as server:
        cache = ResponseCache(Path(tmp) / "cache.sqlite")
        first_backend = OpenAIBackend(_model(server, max_retries=first_max_retries, **common))
        start = time.perf_counter()
        first = run_requests(
            first_backend, requests, cache, Path(tmp) / "p1.jsonl", _row, show_progress=False
        )
        first_wall = time.perf_counter() - start
        first_stats = server_stats(server)
        errors = [k for k, r in first.items() if r["status"] == "error"]
        rerun_backend = CountingBackend(_model(server, max_retries=rerun_max_retries, **common))
        start = time.perf_counter()
        second = run_requests(
            rerun_backend, requests, cache, Path(tmp) / "p2.jsonl", _row, show_progress=False
        )
        rerun_wall = time.perf_counter() - start
        cache.close()
    return {
        "requests": n,
        "fail_rate_per_attempt": fail_rate,
        "faults": ["429", "500", "timeout", "garbage"],
        "first_run": _first_run_report(
            first, requests, first_max_retries, errors, first_stats, first_wall
        ),
        "rerun": _rerun_report(second, rerun_backend, rerun_max_retries, errors, rerun_wall),
    }


def _fault_server_args(latency_s: float, fail_rate: float, seed: int) -> list[str]:
    """The fault server's command line for a drill (short Retry-After and timeout stall)."""
    return [
        "tests.support.fault_server",
        "--latency",
        str(latency_s),
        "--fail-rate",
        str(fail_rate),
        "--retry-after",
        "0.05",
        "--timeout-sleep",
        "3",
        "--seed",
        str(seed),
    ]


def _first_run_report(
    first: dict[str, dict[str, Any]],
    requests: list[ChatRequest],
    max_retries: int,
    errors: list[str],
    stats: dict[str, Any],
    wall_s: float,
) -> dict[str, Any]:
    """The first run's numbers: every item accounted for, as an ok row or an explicit error."""
    n = len(requests)
    explicit = all(
        (r["status"] == "ok" and r["response"] is not None)
        or (r["status"] == "error" and bool(r["error"]))
        for r in first.values()
    )
    return {
        "max_retries": max_retries,
        "rows_out": len(first),
        "count_in_equals_count_out": len(first) == n and set(first) == {r.key for r in requests},
        "every_row_ok_or_explicit_error": explicit,
        "ok": n - len(errors),
        "errors": len(errors),
        "errors_by_kind": dict(Counter(_error_kind(first[k]["error"]) for k in errors)),
        "server_attempts": stats.get("requests", 0),
        "server_faults": {k: stats.get(k, 0) for k in ("429", "500", "timeout", "garbage")},
        "wall_s": round(wall_s, 3),
    }


def _rerun_report(
    second: dict[str, dict[str, Any]],
    backend: CountingBackend,
    max_retries: int,
    errors: list[str],
    wall_s: float,
) -> dict[str, Any]:
    """The re-run's numbers: it asked the backend for the first run's errors only."""
    return {
        "max_retries": max_retries,
        "rows_out": len(second),
        "backend_items": len(backend.asked),
        "asked_only_previous_errors": sorted(backend.asked) == sorted(errors),
        "http_attempts": backend.calls,
        "errors_left": sum(r["status"] == "error" for r in second.values()),
        "previous_errors_now_ok": sum(second[k]["status"] == "ok" for k in errors),
        "wall_s": round(wall_s, 3),
    }


class CountingBackend(OpenAIBackend):
    """Records which items the runner asked the backend for (cache hits never get here)."""

    asked: list[str]

    def generate(
        self, requests: Sequence[ChatRequest]
    ) -> AsyncIterator[tuple[ChatRequest, Completion]]:
        self.asked = [r.key for r in requests]
        return super().generate(requests)
