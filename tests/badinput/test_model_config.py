"""Bad-input corpus, model configs (#16 items 4 and 11): settings that change an answer must
change its cache key, and numbers or URLs that no server takes must not pass validation.

Item 11 cases write a bad conf/model/bad.yaml (or override a good one) and run a stage: a
non-zero exit naming the field and the bad value, nothing written. Item 4 cases are behaviour:
two configs that differ in a setting that changes answers both reach their server; two that
differ only in answer-neutral settings share the cached answers.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from parakh.backends.base import ChatRequest, Completion, make_backend
from parakh.backends.cache import ResponseCache
from parakh.backends.runner import run_requests
from parakh.config.model import OpenAIModel, Sampling
from parakh.io import write_jsonl
from parakh.schema import Question, Retrieval, RetrievedChunk
from tests.badinput.harness import assert_rejected, make_project, run_parakh, snapshot
from tests.support.servers import ServerProcess, start_python_server

N = 3
IDS = [f"q{i}" for i in range(N)]
OUTPUTS = ["data", "reports", ".parakh"]
PROCESSED = Path("data") / "processed" / "demo"
GOOD_URL = "http://127.0.0.1:9/v1"  # never asked: every item 11 case stops before a request


def _project(root: Path, **models: dict[str, Any]) -> Path:
    """Curate and index outputs for N questions, and one conf/model/<name>.yaml per model."""
    make_project(root)
    questions = [Question(id=i, text=f"Question {i}?", language="en") for i in IDS]
    chunk = {"document_id": "d", "kind": "raw", "score": 1.0}
    write_jsonl(root / PROCESSED / "curate" / "questions.jsonl", questions)
    write_jsonl(
        root / PROCESSED / "index" / "retrieval.jsonl",
        [
            Retrieval(
                question_id=q.id,
                raw_chunks=[RetrievedChunk(chunk_id=f"c{q.id}", text=f"Fact {q.id}.", **chunk)],
                kb_update_chunks=[],
            )
            for q in questions
        ],
    )
    for name, settings in models.items():
        text = yaml.safe_dump({"name": name, **settings})
        (root / "conf" / "model" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return root


def _generate(model: str, *overrides: str) -> list[str]:
    return ["generate", "dataset=demo", f"model={model}", "progress=false", *overrides]


def _openai(base_url: Any = GOOD_URL, **settings: Any) -> dict[str, Any]:
    return {"backend": "openai", "model_id": "shared-alias", "base_url": base_url, **settings}


# --- item 11: values no server takes are refused, naming the field -------------------------

REJECTED = [
    pytest.param(
        _openai(sampling={"max_tokens": -5}),
        ["sampling.max_tokens", "greater than or equal to 1"],
        id="item11-negative-max-tokens",
    ),
    pytest.param(
        _openai(sampling={"max_tokens": 0}),
        ["sampling.max_tokens", "greater than or equal to 1"],
        id="item11-zero-max-tokens",
    ),
    pytest.param(
        _openai(sampling={"temperature": -0.2}),
        ["sampling.temperature", "greater than or equal to 0"],
        id="item11-negative-temperature",
    ),
    pytest.param(
        _openai(sampling={"top_p": 0}),
        ["sampling.top_p", "greater than 0"],
        id="item11-zero-top-p",
    ),
    pytest.param(
        _openai(sampling={"top_p": 1.5}),
        ["sampling.top_p", "less than or equal to 1"],
        id="item11-top-p-above-one",
    ),
    pytest.param(
        _openai("localhost:8000/v1"),
        ["base_url", "'localhost:8000/v1' is not an http(s) URL with a host"],
        id="item11-base-url-without-scheme",
    ),
    pytest.param(
        _openai("ftp://models.example/v1"),
        ["base_url", "'ftp://models.example/v1' is not an http(s) URL"],
        id="item11-base-url-not-http",
    ),
    pytest.param(
        _openai("http:///v1"),
        ["base_url", "'http:///v1' is not an http(s) URL with a host"],
        id="item11-base-url-without-host",
    ),
    pytest.param(
        _openai("http://127.0.0.1:70000/v1"),
        ["base_url", "'http://127.0.0.1:70000/v1' is not a valid URL", "Port out of range"],
        id="item11-base-url-port-out-of-range",
    ),
    pytest.param(
        _openai([GOOD_URL, "127.0.0.1:8001/v1"]),
        ["base_url", "'127.0.0.1:8001/v1' is not an http(s) URL"],
        id="item11-base-url-list-with-a-bad-replica",
    ),
    pytest.param(
        _openai(None, servers=[{"base_url": GOOD_URL}, {"base_url": "http//127.0.0.1:8002"}]),
        ["servers.1.base_url", "'http//127.0.0.1:8002' is not an http(s) URL"],
        id="item11-servers-base-url",
    ),
    pytest.param(
        {"backend": "vllm", "model_id": "org/model", "gpu_memory_utilization": 1.5},
        ["gpu_memory_utilization", "less than or equal to 1"],
        id="item11-vllm-gpu-memory-above-one",
    ),
]


@pytest.mark.parametrize(("model", "names"), REJECTED)
def test_bad_model_config_stops_generate_naming_the_field(
    tmp_path, monkeypatch, capsys, model, names
) -> None:
    root = _project(tmp_path, bad=model)
    before = snapshot(root, OUTPUTS)
    outcome = run_parakh(root, _generate("bad"), monkeypatch, capsys)
    assert_rejected(
        outcome,
        names=["invalid configuration", *names],
        before=before,
        after=snapshot(root, OUTPUTS),
    )


def test_item11_negative_max_tokens_override(tmp_path, monkeypatch, capsys) -> None:
    """A good file, a bad command-line override: refused the same way."""
    root = _project(tmp_path, good=_openai(sampling={"max_tokens": 64}))
    before = snapshot(root, OUTPUTS)
    args = _generate("good", "model.sampling.max_tokens=-1")
    outcome = run_parakh(root, args, monkeypatch, capsys)
    assert_rejected(
        outcome,
        names=["model.openai.sampling.max_tokens", "conf/model/good.yaml"],
        before=before,
        after=snapshot(root, OUTPUTS),
    )


def test_item11_judge_model_negative_temperature(tmp_path, monkeypatch, capsys) -> None:
    """The judge's model is a model config too: its sampling is checked alike."""
    root = _project(tmp_path)
    before = snapshot(root, OUTPUTS)
    args = ["judge", "dataset=demo", "model=extractive", "judge.model.sampling.temperature=-1"]
    outcome = run_parakh(root, args, monkeypatch, capsys)
    assert_rejected(
        outcome,
        names=["judge.model", "sampling.temperature", "greater than or equal to 0"],
        before=before,
        after=snapshot(root, OUTPUTS),
    )


def test_item11_model_config_error_names_its_yaml_file(tmp_path, monkeypatch, capsys) -> None:
    root = _project(tmp_path, bad=_openai(sampling={"max_tokens": -5}))
    outcome = run_parakh(root, _generate("bad"), monkeypatch, capsys)
    assert_rejected(outcome, names=["bad.yaml", "sampling.max_tokens"])


# --- item 4: what changes an answer changes the key; nothing else does ---------------------


@contextmanager
def _fault_servers(tmp_path: Path, count: int) -> Iterator[list[ServerProcess]]:
    servers: list[ServerProcess] = []
    try:
        for i in range(count):
            log = tmp_path / f"fault_server_{i}.log"
            servers.append(
                start_python_server(["tests.support.fault_server"], log_path=log, timeout_s=30)
            )
        yield servers
    finally:
        for server in servers:
            server.close()


def _requests_served(server: ServerProcess) -> int:
    with urllib.request.urlopen(server.url + "/stats", timeout=5) as response:
        return int(json.load(response).get("requests", 0))


def _rows(root: Path, model: str) -> list[dict[str, Any]]:
    path = root / PROCESSED / "generate" / f"{model}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_item4_one_model_id_on_two_servers_both_asked(tmp_path, monkeypatch, capsys) -> None:
    """Two servers answering to one alias may hold two models: the second is asked too."""
    with _fault_servers(tmp_path, 2) as (first, second):
        root = _project(tmp_path, a=_openai(first.base_url), b=_openai(second.base_url))
        outcomes = [run_parakh(root, _generate(m), monkeypatch, capsys) for m in ("a", "b")]
        assert (_requests_served(first), _requests_served(second)) == (N, N)
        assert f"generate (b): {N} answers, 0 errors, 0 cached" in outcomes[1].out
        assert all(o.code == 0 and o.traceback is None for o in outcomes), outcomes


def test_item4_answer_neutral_settings_share_the_cache(tmp_path, monkeypatch, capsys) -> None:
    """The control: a second config that differs in name, timeouts, retries, concurrency,
    replica bookkeeping and notes only is served from the cache, its server never asked."""
    with _fault_servers(tmp_path, 1) as (server,):
        neutral = {
            "timeout_s": 7,
            "max_retries": 1,
            "concurrency": 1,
            "notes": "same model, other knobs",
            "base_url": None,
            "servers": [{"base_url": server.base_url + "/", "concurrency": 2}],
        }
        root = _project(tmp_path, a=_openai(server.base_url), b=_openai(**neutral))
        outcomes = [run_parakh(root, _generate(m), monkeypatch, capsys) for m in ("a", "b")]
        assert _requests_served(server) == N
        assert f"generate (b): {N} answers, 0 errors, {N} cached" in outcomes[1].out
        assert all(o.code == 0 and o.traceback is None for o in outcomes), outcomes
        assert [r["response"] for r in _rows(root, "b")] == [
            r["response"] for r in _rows(root, "a")
        ]


def _judge_request() -> ChatRequest:
    """A judge's request keeps its system turn until a backend merges it (system_role: false)."""
    return ChatRequest(
        key="q0::faithfulness",
        messages=(("system", "Grade the answer."), ("user", "Answer: Paris.")),
        sampling=Sampling(max_tokens=16),
        json_schema={"type": "object", "properties": {"score": {"type": "integer"}}},
    )


def _row(request: ChatRequest, completion: Completion, request_hash: str) -> dict[str, Any]:
    return {"text": completion.text, "cached": bool(completion.extra.get("cached"))}


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"system_role": False}, id="item4-judge-system-role-asks-again"),
        pytest.param(
            {"structured_output": "json_object_schema"}, id="item4-structured-output-asks-again"
        ),
        pytest.param({"model_id": "other-alias"}, id="item4-model-id-asks-again"),
    ],
)
def test_a_judge_setting_that_changes_the_request_sent_is_not_served_from_cache(
    tmp_path, change
) -> None:
    with _fault_servers(tmp_path, 1) as (server,):
        cache = ResponseCache(tmp_path / "cache.sqlite")
        try:
            for i, settings in enumerate(({}, change, change)):
                cfg = {"name": "judge", **_openai(server.base_url), **settings}
                backend = make_backend(OpenAIModel.model_validate(cfg))
                request = _judge_request()
                progress = tmp_path / f"progress{i}.jsonl"
                rows = run_requests(backend, [request], cache, progress, _row, show_progress=False)
                assert rows[request.key]["cached"] is (i == 2), (i, rows)
        finally:
            cache.close()
        assert _requests_served(server) == 2  # the first config, then the changed one, once
