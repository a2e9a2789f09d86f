"""Judges on hosted APIs (#15 item 3): the strict schema the OpenAI path sends uses only the
keywords OpenAI documents as supported (checked by the fault server's independent copy of the
API's rules); a server that rejects the schema stops the judge stage at once with one clear
error and no judge rows; what the schema cannot express (a score's range, the justification's
length) is checked after parsing, and an out-of-range score is invalid, never clipped."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parakh.backends.base import ChatRequest
from parakh.backends.openai_compat import OpenAIBackend
from parakh.backends.request_builder import chat_body, response_format
from parakh.backends.runner import generate_all
from parakh.backends.structured_outputs import (
    STRICT_SCHEMA_KEYWORDS,
    SchemaRejectedError,
    is_schema_rejection,
    strict_schema,
)
from parakh.config import compose
from parakh.config.model import OpenAIModel, Sampling
from parakh.config.stage_config import ParakhConfig
from parakh.io import write_jsonl
from parakh.judging.judge_selection import load_model_config
from parakh.judging.parse import parse_verdict
from parakh.metrics.rubric import Rubric, load_rubric
from parakh.schema import Generation, Question
from parakh.stage_outputs import Layout
from parakh.stages import judge
from tests.support.servers import ServerProcess
from tests.support.strict_schema import strict_schema_error

from .conftest import server_stats

REPO = Path(__file__).resolve().parents[2]
RUBRICS = sorted(p.stem for p in (REPO / "conf" / "rubric").glob("*.yaml"))


def _rubrics() -> list[Rubric]:
    rubrics: list[Rubric] = []
    for name in RUBRICS:
        rubrics += load_rubric(name).split() + [load_rubric(name)]
    return rubrics


def _keywords(schema: Any) -> set[str]:
    """Every keyword used at any level of a schema (property names are not keywords)."""
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for name in ("properties", "$defs"):
        for sub in (schema.get(name) or {}).values():
            found |= _keywords(sub)
    for sub in schema.get("anyOf") or []:
        found |= _keywords(sub)
    return found | _keywords(schema.get("items"))


def _sent_format(rubric: Rubric, chars: int = 60) -> dict[str, Any]:
    request = ChatRequest(
        key="k",
        messages=(("user", "judge this"),),
        sampling=Sampling(max_tokens=400),
        json_schema=rubric.json_schema(chars),
    )
    fmt: dict[str, Any] = chat_body(request, "m", structured_output="json_schema")[
        "response_format"
    ]
    return fmt


# --- the schema sent -----------------------------------------------------------------------


@pytest.mark.parametrize("rubric", _rubrics(), ids=lambda r: r.name)
def test_the_openai_path_sends_only_documented_keywords(rubric: Rubric) -> None:
    fmt = _sent_format(rubric)
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert _keywords(schema) <= STRICT_SCHEMA_KEYWORDS
    assert strict_schema_error(fmt, "api") is None
    assert strict_schema_error(fmt, "fine_tuned") is None
    assert schema["additionalProperties"] is False
    assert schema["required"] == list(schema["properties"])


def test_an_integer_scale_keeps_its_enum_and_drops_what_strict_mode_cannot_take() -> None:
    schema = _sent_format(load_rubric("coherence"), chars=60)["json_schema"]["schema"]
    assert schema["properties"]["Score"] == {"type": "integer", "enum": [0, 1, 2]}
    assert schema["properties"]["Justification"] == {"type": "string"}
    decimal = _sent_format(load_rubric("indicquest"))["json_schema"]["schema"]
    assert all(p == {"type": "number"} for p in decimal["properties"].values())


def test_grammar_backends_keep_the_full_schema() -> None:
    full = load_rubric("coherence").json_schema(60)
    assert full["properties"]["Justification"]["maxLength"] == 60
    fmt = response_format(full, "json_object_schema")
    assert fmt is not None and fmt["schema"] == full  # llama-cpp-python's grammar takes it all
    # ... and that full schema is what the API refuses in strict mode:
    error = strict_schema_error(
        {"type": "json_schema", "json_schema": {"name": "r", "schema": full, "strict": True}}
    )
    assert error is not None and "is not permitted" in error
    assert strict_schema(full) != full


def test_strict_check_follows_the_documented_object_rules() -> None:
    def fmt(schema: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "json_schema",
            "json_schema": {"name": "r", "schema": schema, "strict": True},
        }

    open_object = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    assert "'additionalProperties' is required" in (strict_schema_error(fmt(open_object)) or "")
    optional = {**open_object, "required": [], "additionalProperties": False}
    assert "Missing 'a'" in (strict_schema_error(fmt(optional)) or "")
    bounded = {
        "type": "object",
        "properties": {"n": {"type": "number", "minimum": 0, "maximum": 2}},
        "required": ["n"],
        "additionalProperties": False,
    }
    assert strict_schema_error(fmt(bounded), "api") is None  # documented for base models
    assert "'minimum' is not permitted" in (strict_schema_error(fmt(bounded), "fine_tuned") or "")
    not_strict = {"type": "json_schema", "json_schema": {"name": "r", "schema": open_object}}
    assert strict_schema_error(not_strict) is None


# --- a rejected schema is told apart ------------------------------------------------------

OPENAI_REJECTION = json.dumps(
    {
        "error": {
            "message": "Invalid schema for response_format 'response': In context=('properties', "
            "'Justification'), 'maxLength' is not permitted.",
            "type": "invalid_request_error",
            "param": "response_format",
            "code": None,
        }
    }
)


def test_a_400_naming_response_format_is_a_schema_rejection() -> None:
    assert is_schema_rejection(400, OPENAI_REJECTION)
    sdk_text = "Error code: 400 - " + repr(json.loads(OPENAI_REJECTION))
    assert is_schema_rejection(400, sdk_text)
    assert not is_schema_rejection(500, OPENAI_REJECTION)
    other = {"error": {"message": "maximum context length exceeded", "param": "messages"}}
    assert not is_schema_rejection(400, json.dumps(other))


# --- checked after parsing -----------------------------------------------------------------


def test_an_out_of_range_score_is_invalid_and_names_the_range() -> None:
    verdict = parse_verdict('{"Score": 7, "Justification": "x"}', load_rubric("coherence"), 60)
    assert not verdict.valid and verdict.scores == {}
    assert verdict.reason == "Score 7 outside 0..2"
    decimal = parse_verdict(
        '{"Factual Accuracy": 5.5, "Relevance": 5, "Clarity": 4, "Language Consistency": 5, '
        '"Conciseness": 3.5, "Overall": 4}',
        load_rubric("indicquest"),
    )
    assert decimal.reason == "Factual Accuracy 5.5 outside 1..5" and decimal.scores == {}


def test_an_over_long_justification_is_invalid() -> None:
    rubric = load_rubric("coherence")
    at_limit = json.dumps({"Score": 1, "Justification": "x" * 60})
    assert parse_verdict(at_limit, rubric, 60).valid
    over = parse_verdict(json.dumps({"Score": 1, "Justification": "x" * 61}), rubric, 60)
    assert not over.valid and over.reason == (
        "Justification is 61 characters, over the limit of 60 (judge.max_justification_chars)"
    )
    assert parse_verdict(json.dumps({"Score": 1, "Justification": "x" * 61}), rubric).valid


# --- against the fault server ----------------------------------------------------------------


def _openai(server: ServerProcess, **overrides: Any) -> OpenAIModel:
    settings: dict[str, Any] = {
        "name": "fault-judge",
        "backend": "openai",
        "model_id": "fault-model",
        "base_url": server.base_url,
        "concurrency": 1,
        "timeout_s": 5.0,
        "max_retries": 2,
        "backoff_s": 0.01,
        "max_backoff_s": 0.1,
        **overrides,
    }
    return OpenAIModel.model_validate(settings)


def _judge_requests(n: int) -> list[ChatRequest]:
    schema = load_rubric("coherence").json_schema(60)
    return [
        ChatRequest(
            key=f"q{i}",
            messages=(("user", f"judge answer {i}"),),
            sampling=Sampling(max_tokens=400),
            json_schema=schema,
        )
        for i in range(n)
    ]


@pytest.mark.server
@pytest.mark.parametrize("rules", ["api", "fine_tuned"])
@pytest.mark.parametrize("transport", ["http", "sdk"])
def test_the_sent_schema_passes_the_fault_servers_strict_check(
    fault_server: Callable[..., ServerProcess], rules: str, transport: str
) -> None:
    server = fault_server("--strict-schema", rules)
    backend = OpenAIBackend(_openai(server, transport=transport, concurrency=2))
    results = {r.key: c for r, c in generate_all(backend, _judge_requests(3))}
    assert all(c.ok for c in results.values()), [c.error for c in results.values()]
    stats = server_stats(server)
    assert stats.get("schema_rejected", 0) == 0 and stats["ok"] == 3


@pytest.mark.server
@pytest.mark.parametrize("transport", ["http", "sdk"])
def test_a_rejected_schema_stops_at_the_first_request(
    fault_server: Callable[..., ServerProcess], transport: str
) -> None:
    server = fault_server("--strict-schema", "api", "--refuse-keywords", "enum")
    backend = OpenAIBackend(_openai(server, transport=transport))
    with pytest.raises(SchemaRejectedError) as raised:
        generate_all(backend, _judge_requests(5))
    message = str(raised.value)
    assert "rejected the JSON schema sent as `response_format`" in message
    assert "'enum' is not permitted" in message
    assert "structured_output: none" in message and "conf/model/fault-judge.yaml" in message
    assert server_stats(server)["requests"] == 1  # not retried, no second request


QUESTIONS = [
    Question(
        id="q1", text="When can I bathe?", language="en", reference_answers=["After 10 days."]
    ),
    Question(id="q2", text="क्या मैं टीवी देख सकता हूँ?", language="hi", reference_answers=["हाँ।"]),
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    shutil.copytree(REPO / "conf", root / "conf")
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    return root


def _stage_cfg(judge_model: OpenAIModel) -> ParakhConfig:
    cfg = compose(["judge=smoke", "judge.sample_per_language=null"])
    updates = {
        "model": judge_model,
        "rubrics": ["coherence"],
        "reference_metrics": [],
        "max_repairs": 0,
    }
    cfg = cfg.model_copy(update={"judge": cfg.judge.model_copy(update=updates)})
    return cfg.model_copy(update={"model": load_model_config("extractive")})


def _write_inputs(cfg: ParakhConfig) -> Layout:
    layout = Layout.of(cfg)
    write_jsonl(layout.curated_questions, QUESTIONS)
    write_jsonl(
        layout.generations("extractive"),
        [
            Generation(question_id=q.id, model="extractive", status="ok", response="Wait.")
            for q in QUESTIONS
        ],
    )
    write_jsonl(layout.retrieval, [])
    return layout


@pytest.mark.server
def test_a_rejecting_server_stops_the_judge_stage_with_no_rows_written(
    project: Path, fault_server: Callable[..., ServerProcess]
) -> None:
    server = fault_server("--strict-schema", "api", "--refuse-keywords", "enum")
    cfg = _stage_cfg(_openai(server, concurrency=4))
    layout = _write_inputs(cfg)
    out = layout.judgments(cfg.judge.name, "extractive")
    with pytest.raises(SchemaRejectedError, match="rejected the JSON schema"):
        judge.main_task(cfg)
    assert not out.exists()
    assert not judge.summary_path(out).exists()
    written = [p.name for p in out.parent.iterdir()] if out.parent.exists() else []
    assert not [name for name in written if not name.startswith(".")], written
    assert server_stats(server)["requests"] <= 2  # the requests in flight, none after


@pytest.mark.server
def test_an_out_of_range_score_through_the_openai_path_is_an_invalid_row(
    project: Path, fault_server: Callable[..., ServerProcess]
) -> None:
    answer = json.dumps({"Score": 7, "Justification": "far too good"})
    server = fault_server("--strict-schema", "api", "--answer", answer)
    cfg = _stage_cfg(_openai(server))
    layout = _write_inputs(cfg)
    judge.main_task(cfg)
    rows = [json.loads(line) for line in layout.judgments("smoke", "extractive").open()]
    assert len(rows) == 2
    for row in rows:
        assert row["status"] == "invalid" and row["score"] is None
        assert "Score 7 outside 0..2" in row["reason"]
        assert row["raw_output"] == answer
    assert server_stats(server).get("schema_rejected", 0) == 0
