"""Bad-input corpus, a model that cannot answer (#16 items 5 and 6): a closed port, a 404, a
wrong, missing or empty key, a server that times out or fails most requests, and error bodies
that quote the API key back.

A run whose requests fail writes every row with its reason, then exits non-zero naming the
model, the count and the reasons (so `dvc repro` does not record it); a key missing where one
is needed stops the run before any request, with nothing written; no encoding of a key that a
server echoes reaches a row, the message or any file of the project.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from parakh.io import write_jsonl
from parakh.schema import Generation, Question, Retrieval, RetrievedChunk
from parakh.secrets import REDACTED
from tests.backends.conftest import server_control, server_stats
from tests.badinput.harness import Outcome, assert_rejected, make_project, run_parakh, snapshot
from tests.support.key_echo import ECHO_ENCODINGS, decodes_to_secret, leaked_forms
from tests.support.servers import ServerProcess, free_port, start_python_server

KEY_ENV = "PARAKH_BADINPUT_KEY"
KEY = "sk-Badinput/Key+9xQ/7bZ+mW3rT5yU0aLp"
N = 4
IDS = [f"q{i}" for i in range(N)]
OUTPUTS = ["data/processed", "reports", ".parakh"]
GENERATE = ["generate", "dataset=demo", "model=api", "progress=false"]
PROCESSED = Path("data") / "processed" / "demo"


def _project(root: Path, base_url: str | None, **model: Any) -> Path:
    """Curate and index outputs for N questions, and an OpenAI-compatible model `api`."""
    make_project(root)
    questions = [
        Question(id=i, text=f"Question {i}?", language="en", reference_answers=[f"Answer {i}."])
        for i in IDS
    ]
    chunk = {"document_id": "d", "kind": "raw", "score": 1.0}
    retrievals = [
        Retrieval(
            question_id=q.id,
            raw_chunks=[RetrievedChunk(chunk_id=f"c{q.id}", text=f"Fact {q.id}.", **chunk)],
            kb_update_chunks=[],
        )
        for q in questions
    ]
    write_jsonl(root / PROCESSED / "curate" / "questions.jsonl", questions)
    write_jsonl(root / PROCESSED / "index" / "retrieval.jsonl", retrievals)
    settings = {
        "name": "api",
        "backend": "openai",
        "model_id": "fault-model",
        "base_url": base_url,
        "api_key_env": KEY_ENV,
        "concurrency": N,
        "timeout_s": 2,
        "max_retries": 0,
        "backoff_s": 0.01,
        **model,
    }
    (root / "conf" / "model" / "api.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    return root


def _rows(root: Path) -> list[dict[str, Any]]:
    path = root / PROCESSED / "generate" / "api.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _assert_failed_run(outcome: Outcome, root: Path, reason: str, failed: int = N) -> None:
    """Every question's row written, the failed ones with their reason; a non-zero exit whose
    message names the model, the count, the rows file and the setting."""
    assert_rejected(
        outcome,
        names=[
            "model 'api'",
            f"{failed} of {N} requests failed",
            str(root / PROCESSED / "generate" / "api.jsonl"),
            "generation.max_failed_share",
            reason,
        ],
    )
    rows = _rows(root)
    assert [r["question_id"] for r in rows] == IDS
    errors = [r for r in rows if r["status"] == "error"]
    assert len(errors) == failed and all(reason in r["error"] for r in errors), rows


# --- item 6: every request (or most) fails: rows written, then a non-zero exit -----------------


def test_item6_closed_port(tmp_path, monkeypatch, capsys) -> None:
    root = _project(tmp_path, f"http://127.0.0.1:{free_port()}/v1")
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    _assert_failed_run(outcome, root, "connection error")


def test_item6_404(tmp_path, monkeypatch, capsys, fault_server) -> None:
    server = fault_server()
    root = _project(tmp_path, f"{server.url}/no-such-prefix/v1")
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    _assert_failed_run(outcome, root, "HTTP 404")


def test_item6_wrong_key_401(tmp_path, monkeypatch, capsys, fault_server) -> None:
    server = fault_server("--require-key", KEY)
    monkeypatch.setenv(KEY_ENV, "sk-not-the-right-key-0000")
    root = _project(tmp_path, server.base_url)
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    _assert_failed_run(outcome, root, "HTTP 401")


def test_item6_timeout(tmp_path, monkeypatch, capsys, fault_server) -> None:
    server = fault_server("--fail-rate", "1", "--faults", "timeout", "--timeout-sleep", "5")
    root = _project(tmp_path, server.base_url, timeout_s=0.5)
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    _assert_failed_run(outcome, root, "timeout: no answer within 0.5 s")


def test_item6_server_errors_500(tmp_path, monkeypatch, capsys, fault_server) -> None:
    server = fault_server("--fail-rate", "1", "--faults", "500")
    root = _project(tmp_path, server.base_url)
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    _assert_failed_run(outcome, root, "gave up after 1 attempts; last: HTTP 500")


def test_item6_all_failed_even_at_share_1(tmp_path, monkeypatch, capsys) -> None:
    """max_failed_share=1 accepts any share but all: a run that answered nothing has failed."""
    root = _project(tmp_path, f"http://127.0.0.1:{free_port()}/v1")
    args = [*GENERATE, "generation.max_failed_share=1"]
    outcome = run_parakh(root, args, monkeypatch, capsys)
    _assert_failed_run(outcome, root, "connection error")


# Seed 2 fails two of the four requests of this project at rate 0.5 (decided per request).
HALF_FAIL = ("--fail-rate", "0.5", "--faults", "500", "--seed", "2")


def test_item6_over_share(tmp_path, monkeypatch, capsys, fault_server) -> None:
    server = fault_server(*HALF_FAIL)
    root = _project(tmp_path, server.base_url)
    args = [*GENERATE, "generation.max_failed_share=0.25"]
    outcome = run_parakh(root, args, monkeypatch, capsys)
    _assert_failed_run(outcome, root, "HTTP 500", failed=2)
    assert "50%, more than generation.max_failed_share=0.25" in outcome.message


def test_item6_under_share_exits_0(tmp_path, monkeypatch, capsys, fault_server) -> None:
    """The same run at the default share (0.5): two errors of four are not more than half."""
    server = fault_server(*HALF_FAIL)
    root = _project(tmp_path, server.base_url)
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    assert outcome.code == 0 and outcome.traceback is None, outcome.message
    assert [r["status"] for r in _rows(root)].count("error") == 2


def test_item6_rerun_asks_again_only_for_the_failed(
    tmp_path, monkeypatch, capsys, fault_server
) -> None:
    """The failed run's errors are not cached: once the server recovers, a re-run asks for
    exactly the failed questions and exits 0."""
    server = fault_server(*HALF_FAIL)
    root = _project(tmp_path, server.base_url)
    args = [*GENERATE, "generation.max_failed_share=0.25"]
    _assert_failed_run(run_parakh(root, args, monkeypatch, capsys), root, "HTTP 500", failed=2)
    server_control(server, fail_rate=0.0)
    before = server_stats(server)["requests"]
    outcome = run_parakh(root, args, monkeypatch, capsys)
    assert outcome.code == 0 and outcome.traceback is None, outcome.message
    assert server_stats(server)["requests"] - before == 2
    assert [r["status"] for r in _rows(root)] == ["ok"] * N


# --- item 6: a key missing where one is needed: nothing asked, nothing written -----------------


@pytest.mark.parametrize(
    ("model", "env", "where"),
    [
        pytest.param(
            {"base_url": "https://api.openai.com/v1"},
            None,
            "https://api.openai.com/v1",
            id="item6-missing-key-env",
        ),
        pytest.param(
            {"base_url": "https://api.openai.com/v1"},
            "",
            "https://api.openai.com/v1",
            id="item6-empty-key-env",
        ),
        pytest.param(
            {"base_url": "https://res.openai.azure.com", "azure_api_version": "2024-06-01"},
            None,
            "Azure OpenAI",
            id="item6-missing-key-env-azure",
        ),
        pytest.param(
            {"base_url": ["http://127.0.0.1:9/v1", "https://api.together.xyz/v1"]},
            None,
            "https://api.together.xyz/v1",
            id="item6-missing-key-env-one-remote-replica",
        ),
    ],
)
def test_missing_api_key_stops_generate_before_any_request(
    tmp_path, monkeypatch, capsys, model, env, where
) -> None:
    if env is None:
        monkeypatch.delenv(KEY_ENV, raising=False)
    else:
        monkeypatch.setenv(KEY_ENV, env)
    root = _project(tmp_path, **model)
    before = snapshot(root, OUTPUTS)
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    assert_rejected(
        outcome,
        names=[KEY_ENV, "api_key_env", "model 'api'", where],
        before=before,
        after=snapshot(root, OUTPUTS),
    )


def test_item6_missing_key_env_judge(tmp_path, monkeypatch, capsys) -> None:
    """The judge model goes through the same backend: it too stops before asking anything."""
    monkeypatch.delenv(KEY_ENV, raising=False)
    root = _project(tmp_path, "https://api.openai.com/v1")
    answers = [
        Generation(question_id=i, model="extractive", status="ok", response=f"Answer {i}.")
        for i in IDS
    ]
    write_jsonl(root / PROCESSED / "generate" / "extractive.jsonl", answers)
    folders = ["data/processed", "reports"]
    before = snapshot(root, folders)
    args = ["judge", "dataset=demo", "model=extractive", "judge=served", "model@judge.model=api"]
    outcome = run_parakh(root, [*args, "progress=false"], monkeypatch, capsys)
    assert_rejected(
        outcome, names=[KEY_ENV, "model 'api'"], before=before, after=snapshot(root, folders)
    )


def test_item6_local_server_needs_no_key(tmp_path, monkeypatch, capsys, fault_server) -> None:
    """llama.cpp's server or vllm serve on loopback: no key set, and the run goes on."""
    monkeypatch.delenv(KEY_ENV, raising=False)
    server = fault_server()
    root = _project(tmp_path, server.base_url)
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    assert outcome.code == 0 and outcome.traceback is None, outcome.message
    assert [r["status"] for r in _rows(root)] == ["ok"] * N


def test_item6_bad_max_failed_share(tmp_path, monkeypatch, capsys) -> None:
    root = _project(tmp_path, f"http://127.0.0.1:{free_port()}/v1")
    before = snapshot(root, OUTPUTS)
    args = [*GENERATE, "generation.max_failed_share=1.5"]
    outcome = run_parakh(root, args, monkeypatch, capsys)
    assert_rejected(
        outcome, names=["max_failed_share"], before=before, after=snapshot(root, OUTPUTS)
    )


# --- item 5: a server that quotes the key back ----------------------------------------------


@pytest.fixture(scope="module")
def echo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    log = tmp_path_factory.mktemp("echo") / "server.log"
    server = start_python_server(
        ["tests.support.fault_server", "--fail-rate", "1", "--faults", "echo"],
        log_path=log,
        timeout_s=30,
    )
    yield server
    server.close()


ECHO_IDS = {
    "raw_cut": "item5-key-crossing-cut",
    "upper": "item5-key-upper-case",
    "lower": "item5-key-lower-case",
    "json_slash": "item5-key-json-escaped-slash",
    "json_unicode": "item5-key-json-unicode-escaped",
    "url_quote": "item5-key-url-encoded",
    "url_quote_plus": "item5-key-url-quote-plus",
    "base64_key": "item5-key-base64",
    "base64_basic": "item5-key-base64-basic-auth",
    "base64_bearer": "item5-key-base64-bearer",
    "auth_header": "item5-key-echoed-auth-header",
}


def _leaks(data: bytes) -> list[str]:
    lowered = data.lower()
    found = [f for f in leaked_forms(KEY) if f.lower().encode("utf-8") in lowered]
    return found + (["base64"] if decodes_to_secret(data.decode("latin-1"), KEY) else [])


@pytest.mark.parametrize("encoding", [pytest.param(e, id=ECHO_IDS[e]) for e in ECHO_ENCODINGS])
def test_an_echoed_key_reaches_no_row_message_or_file(
    tmp_path, monkeypatch, capsys, echo_server, encoding
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    server_control(echo_server, echo_encodings=[encoding])
    before = server_stats(echo_server).get(f"echo_{encoding}", 0)
    root = _project(tmp_path, echo_server.base_url)
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    assert_rejected(outcome, names=["model 'api'", f"{N} of {N} requests failed"])
    assert server_stats(echo_server)[f"echo_{encoding}"] - before == N
    assert all(REDACTED in r["error"] for r in _rows(root))
    assert not _leaks(outcome.message.encode("utf-8")), outcome.message
    written = [p for p in root.rglob("*") if p.is_file() and "conf" not in p.parts]
    assert not {str(p): found for p in written if (found := _leaks(p.read_bytes()))}
