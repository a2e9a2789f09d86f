"""A served embedder's API key never reaches an error message: a server that quotes the key or
the request's Authorization header back in its error body gets it scrubbed
(`parakh.secrets`), and the raw error is not chained on for a traceback to print."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from tests.support.key_echo import decodes_to_secret

from parakh.config.retrieval import EmbedderConfig
from parakh.retrieval.embedders import EmbeddingError, make_embedder
from parakh.secrets import REDACTED

KEY = "sk-embed-Secret-0123456789abcdef"


class EchoingServer(BaseHTTPRequestHandler):
    """Refuses every request, quoting what it was sent in the form `echo` names."""

    echo = "plain"

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        auth = self.headers["Authorization"]
        key = auth.removeprefix("Bearer ")
        message = {
            "plain": f"invalid api key {key}; header was {auth}",
            "upper": f"key {key.upper()} unknown",
            "base64": f"token {base64.b64encode(key.encode()).decode()} refused",
        }[type(self).echo]
        raw = json.dumps({"error": {"message": message, "type": "auth_error"}}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), EchoingServer)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize("echo", ["plain", "upper", "base64"])
def test_a_key_the_server_echoes_is_scrubbed_from_the_error(
    server: str, echo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMBED_KEY", KEY)
    monkeypatch.setattr(EchoingServer, "echo", echo)
    cfg = EmbedderConfig(
        name="served",
        kind="openai",
        base_url=server,
        model="e5",
        api_key_env="EMBED_KEY",
        max_retries=0,
    )
    with pytest.raises(EmbeddingError) as caught:
        make_embedder(cfg).embed_passages(["x"])
    message = str(caught.value)
    assert KEY not in message and KEY.upper() not in message
    assert not decodes_to_secret(message, KEY)
    assert REDACTED in message
    assert server in message and "'e5'" in message and "AuthenticationError" in message
    error = caught.value
    assert error.__cause__ is None and error.__suppress_context__  # no raw text chained on
