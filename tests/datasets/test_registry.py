"""The adapter registry, adapter options, lenient loading and the health-chatbot chat logs."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from parakh.datasets import adapter_names, load_dataset, parse_options
from parakh.errors import ConfigError, InputError
from tests.conftest import REPO

DEMO = REPO / "data" / "raw" / "demo"


def test_all_adapters_are_registered() -> None:
    assert adapter_names() == [
        "cataractbot",
        "healthbot",
        "human_judgments",
        "indicquest",
        "liveqa_med",
        "medquad",
        "nomiracl",
        "qa_jsonl",
        "squad",
    ]


def test_unknown_adapter_names_close_matches() -> None:
    with pytest.raises(ConfigError, match=r"Unknown dataset adapter 'sqad'\. Did you mean 'squad'"):
        parse_options("sqad", None)


def test_options_reject_unknown_keys_and_bad_values() -> None:
    with pytest.raises(ConfigError, match=r"dataset\.options\.paragraph_as_kb: unknown key"):
        parse_options("squad", {"paragraph_as_kb": False})
    with pytest.raises(ConfigError, match=r"dataset\.options\.passages_as_kb: .*boolean"):
        parse_options("nomiracl", {"passages_as_kb": "sometimes"})
    assert parse_options("squad", None).model_dump() == {"files": None, "paragraphs_as_kb": True}


def test_the_demo_loads_with_its_adapter() -> None:
    loaded = load_dataset("healthbot", DEMO)
    assert len(loaded.questions) == 80 and len(loaded.documents) == 25
    assert loaded.questions[0].id == "demo-001"
    assert loaded.origins[0].describe() == "questions.jsonl, line 1"


def _chat_dataset(tmp_path: Path) -> Path:
    root = tmp_path / "bot"
    (root / "logs").mkdir(parents=True)
    (root / "logs" / "march.csv").write_text(
        "msg_id,sent_at,sender,body,lang\n"
        "m1,2024-03-01T09:15:00,+919845012345,Kab tak aankh me dawai dalni hai?,hi\n"
        'm2,2024-03-02 18:40,+919845012345,"When can I drive, doctor?",en\n',
        encoding="utf-8",
    )
    (root / "logs" / "april.jsonl").write_text(
        json.dumps({"msg_id": "m3", "sent_at": "2024-04-05", "body": "Can I eat roti?"}) + "\n",
        encoding="utf-8",
    )
    return root


def test_chat_logs_become_dated_questions(tmp_path: Path) -> None:
    root = _chat_dataset(tmp_path)
    options = {
        "questions": None,
        "chat_logs": [
            {"path": "logs/*.csv", "id": "msg_id", "timestamp": "sent_at", "text": "body",
             "language": "lang", "keep": ["sender"]},
            {"path": "logs/*.jsonl", "id": "msg_id", "timestamp": "sent_at", "text": "body"},
        ],
    }  # fmt: skip
    loaded = load_dataset("healthbot", root, options)
    by_id = {q.id: q for q in loaded.questions}
    assert list(by_id) == ["m1", "m2", "m3"]
    assert by_id["m1"].asked_at == date(2024, 3, 1) and by_id["m2"].asked_at == date(2024, 3, 2)
    assert by_id["m1"].language == "hi" and by_id["m1"].label_source == {"language": "dataset"}
    assert by_id["m3"].language == "und" and by_id["m3"].label_source == {}  # curate detects it
    assert by_id["m1"].meta == {
        "source": "logs/march.csv",
        "timestamp": "2024-03-01T09:15:00",
        "sender": "+919845012345",  # redacted by curate before anything is written
    }
    assert [o.describe() for o in loaded.origins] == [
        "march.csv, line 2",
        "march.csv, line 3",
        "april.jsonl, line 1",
    ]


def test_a_missing_chat_log_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no chat-log file matches"):
        load_dataset("healthbot", tmp_path, {"questions": None, "chat_logs": [{"path": "*.csv"}]})


def test_lenient_loading_collects_bad_rows_and_keeps_the_rest(tmp_path: Path) -> None:
    (tmp_path / "questions.jsonl").write_text(
        '{"id": "a", "text": "ok?", "language": "en"}\n'
        '{"id": "b", "text": "", "language": "en"}\n'
        '{"id": "c", "text": "ok too?", "language": "english"}\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"questions.jsonl, line 2, field 'text'"):
        load_dataset("healthbot", tmp_path)
    loaded = load_dataset("healthbot", tmp_path, strict=False)
    assert [q.id for q in loaded.questions] == ["a", "c"]
    assert loaded.questions[1].language == "en"  # a language name is accepted as its code
    (bad,) = loaded.rejected
    assert (bad.line, bad.field, bad.reason) == (2, "text", "empty_text")
    assert json.loads(bad.record)["id"] == "b"
