"""API keys stay out of everything a run writes (#16 item 5), and a missing one stops a run
before its first request (#16 item 6).

The scrubber alone on every echo encoding; both transports against the fault server's `echo`
fault; then a whole project (generate, judge, aggregate with MLflow tracking to a file store)
against a server that quotes the key back in eleven encodings, with every file under the
project searched for every one of them, case-insensitively, as raw bytes.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from parakh.backends.base import ChatRequest
from parakh.backends.openai_compat import OpenAIBackend
from parakh.backends.openai_http import REASON_CHARS, status_failure
from parakh.backends.runner import generate_all
from parakh.config.model import OpenAIModel, Sampling
from parakh.errors import ConfigError
from parakh.schema import Question
from parakh.secrets import (
    REDACTED,
    SecretScrubber,
    is_local_url,
    require_api_key,
    scrubber_for,
)
from tests.badinput.harness import make_project, run_parakh
from tests.conftest import write_answerable_inputs
from tests.support.key_echo import ECHO_ENCODINGS, decodes_to_secret, echo_body, leaked_forms
from tests.support.servers import ServerProcess

from .conftest import server_stats

KEY = "sk-Parakh/Te5t+Key9xQ/7bZ+mW3rT5yU0a"  # `/`, `+`, both cases, digits
KEY_ENV = "PARAKH_SECRETS_TEST_KEY"


def leaks(data: bytes | str, key: str = KEY) -> list[str]:
    """The forms of `key` found in `data` (case-insensitive), and base64 that decodes to it."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    lowered = raw.lower()
    found = [f for f in leaked_forms(key) if f.lower().encode("utf-8") in lowered]
    if decodes_to_secret(raw.decode("latin-1"), key):
        found.append("base64")
    return found


# --- the scrubber -------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ECHO_ENCODINGS)
def test_every_echo_encoding_is_scrubbed(encoding: str) -> None:
    body = echo_body(KEY, encoding)
    assert leaks(body), "the echo must hold the key, or this test proves nothing"
    scrubbed = SecretScrubber((KEY,))(body)
    assert not leaks(scrubbed), scrubbed
    assert REDACTED in scrubbed


def test_a_key_crossing_the_cut_leaves_no_prefix() -> None:
    """The old order (cut at 300, then replace) left the key's first 10 characters."""
    body = echo_body(KEY, "raw_cut")
    reason = f"HTTP 401: {body}"
    assert reason.index(KEY) < REASON_CHARS < reason.index(KEY) + len(KEY)
    assert KEY[:10] in reason[:REASON_CHARS].replace(KEY, REDACTED)  # what was stored before
    failure = status_failure(401, body, {}, scrubber_for((KEY,)))
    assert KEY[:6].lower() not in failure.reason.lower()
    assert f"x{REDACTED} is not a" in failure.reason
    assert len(failure.reason) == len("HTTP 401: ") + REASON_CHARS


@pytest.mark.parametrize("before", ["", "B", "Be", "Bearer ", "user:", "u:", "x" * 5])
@pytest.mark.parametrize("alphabet", ["standard", "urlsafe"])
def test_base64_of_the_key_at_any_alignment_is_scrubbed(before: str, alphabet: str) -> None:
    encode = base64.b64encode if alphabet == "standard" else base64.urlsafe_b64encode
    for after in ("", "!", "!!", "!!!"):
        encoded = encode(f"{before}{KEY}{after}".encode()).decode()
        text = f'{{"token": "{encoded}"}}'
        assert decodes_to_secret(text, KEY)
        assert not decodes_to_secret(SecretScrubber((KEY,))(text), KEY), (before, after)


@pytest.mark.parametrize(
    "echo",
    [
        "Authorization: Bearer tok-123456789",
        '{"authorization": "Bearer tok-123\\/456789"}',
        "{'Authorization': 'Basic dG9rOjEyMzQ1Njc4OQ=='}",
        "[(b'authorization', b'Bearer tok-123456789')]",
        "api-key: tok-123456789",
        '"x-api-key":"tok-123456789"',
        "Proxy-Authorization: Bearer tok-123456789",
        "GET /v1/models?key=tok-123456789&alt=json",
    ],
)
def test_echoed_auth_headers_lose_their_value_whatever_the_key(echo: str) -> None:
    """A header quoted back goes even when it is not this run's key (another credential)."""
    scrubbed = SecretScrubber()(f"HTTP 401: request was {echo}; bye")
    assert "123" not in scrubbed and "dG9r" not in scrubbed and REDACTED in scrubbed
    assert scrubbed.endswith("; bye") or scrubbed.endswith("&alt=json; bye")


def test_scrubbing_is_idempotent_and_leaves_ordinary_text_alone() -> None:
    scrub = SecretScrubber((KEY,))
    for encoding in ECHO_ENCODINGS:
        once = scrub(echo_body(KEY, encoding))
        assert scrub(once) == once
    for text in ("HTTP 500: internal error", "timeout: no answer within 5 s", "the body is empty"):
        assert scrub(text) == text
    # A short placeholder key (`EMPTY`, sent when none is set) is never folded into words.
    assert scrubber_for(("EMPTY",))("the body was empty") == "the body was empty"
    assert scrubber_for(("",))("HTTP 404: not found") == "HTTP 404: not found"


# --- when a key is required ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:8080/v1", True),
        ("http://localhost:8000/v1", True),
        ("http://[::1]:8000/v1", True),
        ("http://10.1.2.3:8000/v1", True),
        ("http://192.168.0.7/v1", True),
        ("http://gpu1:8000/v1", True),
        ("http://vllm.default.svc.cluster.local:8000/v1", True),
        ("https://api.openai.com/v1", False),
        ("https://my-resource.openai.azure.com", False),
        ("https://api.together.xyz/v1", False),
        ("http://8.8.8.8/v1", False),
    ],
)
def test_local_servers_need_no_key(url: str, local: bool) -> None:
    assert is_local_url(url) is local


def test_a_missing_key_is_an_error_naming_the_variable_only_where_one_is_needed() -> None:
    local = ["http://127.0.0.1:8080/v1"]
    require_api_key("m", "MY_KEY", None, local, azure=False)  # llama.cpp's server: no key
    require_api_key("m", "MY_KEY", "sk-x", ["https://api.openai.com/v1"], azure=False)
    with pytest.raises(ConfigError, match="MY_KEY.*https://api.openai.com/v1"):
        require_api_key("m", "MY_KEY", "", ["https://api.openai.com/v1"], azure=False)
    with pytest.raises(ConfigError, match="MY_KEY.*Azure"):
        require_api_key("m", "MY_KEY", None, local, azure=True)


def test_the_backend_refuses_before_any_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    model = _model("https://api.example.com/v1", api_key_env=KEY_ENV)
    backend = OpenAIBackend(model)  # building one (for its identity, say) needs no key
    with pytest.raises(ConfigError, match=KEY_ENV):
        backend.prepare(["q0"])
    with pytest.raises(ConfigError, match=KEY_ENV):
        generate_all(backend, _requests(2))
    assert backend.calls == 0


# --- both transports against a server that echoes the key ---------------------------------------


def _model(base_url: str, **overrides: object) -> OpenAIModel:
    settings = {
        "name": "echo",
        "backend": "openai",
        "model_id": "fault-model",
        "base_url": base_url,
        "concurrency": 4,
        "timeout_s": 5.0,
        "max_retries": 0,
        **overrides,
    }
    return OpenAIModel.model_validate(settings)


def _requests(n: int) -> list[ChatRequest]:
    return [
        ChatRequest(
            key=f"q{i}", messages=(("user", f"question {i}"),), sampling=Sampling(max_tokens=8)
        )
        for i in range(n)
    ]


@pytest.fixture(params=["http", "sdk"])
def transport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.server
def test_no_echo_encoding_reaches_an_error_row_on_either_transport(
    transport: str, fault_server: Callable[..., ServerProcess], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    server = fault_server("--fail-rate", "1", "--faults", "echo")
    backend = OpenAIBackend(_model(server.base_url, api_key_env=KEY_ENV, transport=transport))
    completions = [c for _, c in generate_all(backend, _requests(2 * len(ECHO_ENCODINGS)))]
    assert all(not c.ok for c in completions)
    stats = server_stats(server)
    assert all(stats[f"echo_{e}"] == 2 for e in ECHO_ENCODINGS)
    for completion in completions:
        error = completion.error or ""
        assert error.startswith(("HTTP 401", "gave up after 1 attempts; last: HTTP 500"))
        assert not leaks(error), error


# --- a whole project ----------------------------------------------------------------------------

N_QUESTIONS = 24


def _write_project(root: Path, base_url: str) -> None:
    make_project(root)
    questions = [
        Question(
            id=f"q{i:02d}",
            text=f"Question number {i}?",
            language="en",
            reference_answers=[f"Answer {i}."],
        )
        for i in range(N_QUESTIONS)
    ]
    write_answerable_inputs(root, questions)
    for name, structured in (("echo", "none"), ("echojudge", "json_schema")):
        settings = {
            "name": name,
            "backend": "openai",
            "model_id": f"{name}-model",
            "base_url": base_url,
            "api_key_env": KEY_ENV,
            "structured_output": structured,
            "concurrency": 4,
            "timeout_s": 10,
            "max_retries": 0,
            "prices": {"input_per_mtok": 2.5, "output_per_mtok": 10.0},
        }
        (root / "conf" / "model" / f"{name}.yaml").write_text(json.dumps(settings))


@pytest.mark.server
@pytest.mark.slow
def test_a_run_against_a_key_echoing_server_writes_the_key_nowhere(
    tmp_path: Path,
    fault_server: Callable[..., ServerProcess],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Generate, judge and aggregate, with MLflow tracking to a file store in the project;
    then every file under it (data, cache, mlruns, reports, logs, .parakh) is searched."""
    monkeypatch.setenv(KEY_ENV, KEY)
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # MLflow 3 keeps it for opt-ins
    server = fault_server("--fail-rate", "0.6", "--faults", "echo")
    root = tmp_path / "project"
    _write_project(root, server.base_url)
    common = ["dataset=demo", "progress=false", f"tracking.uri=file:{root / 'mlruns'}"]
    stages = {
        "generate": ["model=echo", "generation.log_mlflow=true", "generation.max_failed_share=0.9"],
        "judge": [
            "model=echo",
            "judge=served",
            "model@judge.model=echojudge",
            "judge.sample_per_language=null",
        ],
        "aggregate": ["judge=served", "models=[echo]"],
    }
    logs = root / "logs"
    logs.mkdir()
    for stage, overrides in stages.items():
        outcome = run_parakh(root, [stage, *common, *overrides], monkeypatch, capsys)
        (logs / f"{stage}.log").write_text(outcome.message + (outcome.traceback or ""))
        assert outcome.code == 0 and outcome.traceback is None, outcome.message
    stats = server_stats(server)
    assert all(stats[f"echo_{e}"] >= 1 for e in ECHO_ENCODINGS), stats
    generated = root / "data" / "processed" / "demo" / "generate" / "echo.jsonl"
    errors = [r["error"] for r in map(json.loads, generated.read_text().splitlines()) if r["error"]]
    assert len(errors) >= len(ECHO_ENCODINGS) and all(REDACTED in e for e in errors)
    judged = list((root / "data" / "processed" / "demo" / "judge").rglob("*.jsonl"))
    assert judged and any(REDACTED in p.read_text() for p in judged)  # the judge's own echoes
    written = [p for p in root.rglob("*") if p.is_file() and not p.is_relative_to(root / "conf")]
    folders = {p.relative_to(root).parts[0] for p in written}
    assert {"data", "logs", "mlruns", "reports", ".parakh"} <= folders, folders
    assert any(p.suffix == ".sqlite" for p in written)
    found = {str(p.relative_to(root)): leaks(p.read_bytes()) for p in written}
    assert not {path: forms for path, forms in found.items() if forms}


def test_leaks_finds_every_encoding_it_looks_for() -> None:
    """The search itself: each echo body, and each as a JSON row would hold it, is found."""
    for encoding in ECHO_ENCODINGS:
        body = echo_body(KEY, encoding)
        assert leaks(body) and leaks(json.dumps({"error": body})), encoding
        assert leaks(re.sub("[a-z]", lambda m: m[0].upper(), body)), encoding
