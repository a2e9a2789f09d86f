"""Bad input: strict curate fails naming file, line (or JSON path) and field, exits non-zero and
leaves no output; lenient curate quarantines the bad rows with their reason and goes on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.curation.curate_project import (
    make_project,
    output_files,
    read_jsonl,
    run_curate,
    write_dataset_config,
    write_files,
)


def jl(*rows: dict[str, Any] | str) -> str:
    return "".join(
        (r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in rows
    )


Q1 = {"id": "q1", "text": "When can I take a head bath?", "language": "en"}
CB = {
    "id": "Generic-000",
    "unit": "Generic",
    "source_file": "GENERIC_KB_Update.txt",
    "entry_index": 0,
    "question": "Can I watch TV?",
    "answer": "After 2 days.",
}
IQ_HEADER = "id,Question,Answer,Domain\n"
IQ_ROW = "iq-000, 1920 में किसकी मृत्यु हुई?, तिलक की।,Politics\n"
QUERY = {
    "language": "hi",
    "split": "test",
    "subset": "relevant",
    "query_id": "1#0",
    "query": "फिलिस्तीन में दंगों का कारण क्या था?",
    "docids": ["10#1", "10#2"],
    "results": {"gpt-4": "I don't know."},
}
PASSAGES = jl(
    {"language": "hi", "docid": "10#1", "passage": "इज़राइल: पहला अनुच्छेद"},
    {"language": "hi", "docid": "10#2", "passage": "फिलिस्तीन: दूसरा अनुच्छेद"},
)
JUDGED = {
    "Question_ID": "2",
    "NLM-Summary": "Do zolmitriptan tablets contain gluten?",
    "Answer_ID": "GHR_1.txt",
    "Answer": "Question: What is celiac disease?\nAnswer: A condition.",
    "score": 1,
    "judgment": "1-Incorrect",
}


def squad(**qa_changes: Any) -> str:
    context = "पैंथर्स की डिफ़ेन्स ने लीग में केवल 308 अंक दिए।"
    answers = [{"text": "308", "answer_start": context.index("308")}]
    qa = {"id": "56be", "question": "कितने अंक दिए?", "answers": answers}
    qa.update(qa_changes)
    paragraph: dict[str, Any] = {"context": context, "qas": [qa]}
    return json.dumps(
        {"version": "1.1", "data": [{"title": "Panthers", "paragraphs": [paragraph]}]}
    )


@dataclass
class Case:
    adapter: str
    files: dict[str, str | bytes]
    expected: list[str]
    options: dict[str, Any] = field(default_factory=dict)


CHAT = {"chat_logs": [{"path": "chat.csv"}], "questions": None}

CASES: dict[str, Case] = {
    # health-chatbot questions (JSONL)
    "missing-text": Case(
        "healthbot",
        {"questions.jsonl": jl(Q1, {"id": "q2", "language": "en"})},
        ["questions.jsonl, line 2, field 'text'", "missing required field"],
    ),
    "empty-text": Case(
        "healthbot",
        {"questions.jsonl": jl(Q1, {"id": "q2", "text": "   ", "language": "en"})},
        ["questions.jsonl, line 2, field 'text'", "text is empty"],
    ),
    "unknown-language": Case(
        "healthbot",
        {"questions.jsonl": jl(Q1, {"id": "q2", "text": "kab?", "language": "hn"})},
        ["questions.jsonl, line 2, field 'language'", "unknown language code 'hn'", "'hi'"],
    ),
    "unknown-response-language": Case(
        "healthbot",
        {"questions.jsonl": jl({**Q1, "response_language": "xx"})},
        ["questions.jsonl, line 1, field 'response_language'", "unknown language code 'xx'"],
    ),
    "invalid-utf8": Case(
        "healthbot",
        {
            "questions.jsonl": jl(Q1).encode()
            + b'{"id": "q2", "text": "caf\xe9?", "language": "en"}\n'
        },
        ["questions.jsonl, line 2, field 'text'", "invalid UTF-8 (byte 0xe9)"],
    ),
    "bad-date": Case(
        "healthbot",
        {
            "questions.jsonl": jl(
                Q1, {"id": "q2", "text": "x?", "language": "en", "asked_at": "2024-13-45"}
            )
        },
        ["questions.jsonl, line 2, field 'asked_at'", "date does not parse: '2024-13-45'"],
    ),
    "duplicate-id-other-content": Case(
        "healthbot",
        {
            "questions.jsonl": jl(
                Q1, {"id": "q2", "text": "a?", "language": "en"}, {**Q1, "text": "b?"}
            )
        },
        [
            "questions.jsonl, line 3, field 'id'",
            "duplicate id 'q1' with different content (first at questions.jsonl, line 1)",
        ],
    ),
    "unknown-field": Case(
        "healthbot",
        {"questions.jsonl": jl({**Q1, "qestion": "typo"})},
        ["questions.jsonl, line 1, field 'qestion'", "unknown field"],
    ),
    "categories-not-a-list": Case(
        "healthbot",
        {"questions.jsonl": jl({**Q1, "categories": "misspelled"})},
        ["questions.jsonl, line 1, field 'categories'", "expected a list of strings"],
    ),
    "answerable-not-boolean": Case(
        "healthbot",
        {"questions.jsonl": jl({**Q1, "answerable": "maybe"})},
        ["questions.jsonl, line 1, field 'answerable'", "valid boolean"],
    ),
    "invalid-json": Case(
        "healthbot",
        {"questions.jsonl": jl(Q1, '{"id": "q2", "text": "unterminated}')},
        ["questions.jsonl, line 2, field 'text'", "not valid JSON"],
    ),
    # health-chatbot KB
    "kb-update-without-answer": Case(
        "healthbot",
        {
            "questions.jsonl": jl(Q1),
            "kb/updates/2024-01-15.md": "## Head bath?\n\n## Drops?\nFour times a day.\n",
        },
        ["2024-01-15.md, line 1, field 'answer'", "has no answer"],
    ),
    "kb-update-impossible-date": Case(
        "healthbot",
        {"questions.jsonl": jl(Q1), "kb/updates/2024-02-30.md": "## Q?\nA.\n"},
        ["2024-02-30.md, field 'added_at'", "not a valid date"],
    ),
    "kb-document-invalid-utf8": Case(
        "healthbot",
        {
            "questions.jsonl": jl(Q1),
            "kb/raw/diet.md": b"# Diet\n\nNo hard food \xff for 10 days.\n",
        },
        ["diet.md, line 3, field 'text'", "invalid UTF-8 (byte 0xff)"],
    ),
    # health-chatbot chat logs (CSV)
    "chat-log-missing-column": Case(
        "healthbot",
        {"chat.csv": "id,text\nm1,hello\n"},
        ["chat.csv, line 1, field 'timestamp'", "missing column"],
        CHAT,
    ),
    "chat-log-timestamp": Case(
        "healthbot",
        {"chat.csv": "id,timestamp,text\nm1,2024-01-02T10:00:00,hi\nm2,yesterday,when?\n"},
        ["chat.csv, line 3, field 'timestamp'", "date does not parse: 'yesterday'"],
        CHAT,
    ),
    "chat-log-short-row": Case(
        "healthbot",
        {"chat.csv": "id,timestamp,text\nm1,2024-01-02\n"},
        ["chat.csv, line 2, field 'text'", "row has 2 cells, header has 3"],
        CHAT,
    ),
    # CataractBot
    "cataractbot-missing-question": Case(
        "cataractbot",
        {
            "kb/faq.txt": "FAQ\n",
            "kb_update_qa.jsonl": jl({k: v for k, v in CB.items() if k != "question"}),
        },
        ["kb_update_qa.jsonl, line 1, field 'question'", "missing required field"],
    ),
    "cataractbot-entry-index": Case(
        "cataractbot",
        {"kb/faq.txt": "FAQ\n", "kb_update_qa.jsonl": jl({**CB, "entry_index": "first"})},
        ["kb_update_qa.jsonl, line 1, field 'entry_index'", "expected an integer"],
    ),
    # IndicQuest
    "indicquest-missing-column": Case(
        "indicquest",
        {"Hindi.csv": "id,Question,Answer\niq-000,a,b\n"},
        ["Hindi.csv, line 1, field 'Domain'", "missing column"],
    ),
    "indicquest-unknown-language-file": Case(
        "indicquest",
        {"Klingon.csv": IQ_HEADER + IQ_ROW},
        ["Klingon.csv, field 'language'", "unknown language code 'Klingon'"],
    ),
    "indicquest-empty-question": Case(
        "indicquest",
        {"Hindi.csv": IQ_HEADER + IQ_ROW + "iq-001,  ,उत्तर,History\n"},
        ["Hindi.csv, line 3, field 'Question'", "text is empty"],
    ),
    "indicquest-unknown-domain": Case(
        "indicquest",
        {"Hindi.csv": IQ_HEADER + "iq-000,प्रश्न?,उत्तर,Sports\n"},
        ["Hindi.csv, line 2, field 'Domain'", "unknown domain 'Sports'"],
    ),
    # SQuAD / XQuAD
    "squad-answer-start": Case(
        "squad",
        {"xquad.hi.json": squad(answers=[{"text": "308", "answer_start": 3}])},
        [
            "xquad.hi.json, field 'data[0].paragraphs[0].qas[0].answers[0].answer_start'",
            "is not the answer text '308'",
        ],
    ),
    "squad-empty-question": Case(
        "squad",
        {"xquad.hi.json": squad(question=" ")},
        ["xquad.hi.json, field 'data[0].paragraphs[0].qas[0].question'", "text is empty"],
    ),
    "squad-missing-context": Case(
        "squad",
        {"xquad.hi.json": squad().replace('"context"', '"kontext"')},
        ["xquad.hi.json, field 'data[0].paragraphs[0].context'", "missing required field"],
    ),
    # NoMIRACL
    "nomiracl-missing-passage": Case(
        "nomiracl",
        {"queries.jsonl": jl({**QUERY, "docids": ["10#1", "99#9"]}), "passages.jsonl": PASSAGES},
        [
            "queries.jsonl, line 1, field 'docids[1]'",
            "passage '99#9' (hi) is not in passages.jsonl",
        ],
    ),
    "nomiracl-subset": Case(
        "nomiracl",
        {"queries.jsonl": jl({**QUERY, "subset": "maybe"}), "passages.jsonl": PASSAGES},
        ["queries.jsonl, line 1, field 'subset'", "got 'maybe'"],
    ),
    "nomiracl-language": Case(
        "nomiracl",
        {"queries.jsonl": jl({**QUERY, "language": "xx"}), "passages.jsonl": PASSAGES},
        ["queries.jsonl, line 1, field 'language'", "unknown language code 'xx'"],
    ),
    # simple QA JSONL (MedQuAD)
    "qa-missing-answer": Case(
        "qa_jsonl",
        {"qa.jsonl": jl({"id": "a1", "question": "What is glaucoma?"})},
        ["qa.jsonl, line 1, field 'answer'", "missing required field"],
        {"file": "qa.jsonl"},
    ),
    # human judgments
    "judgment-grade-off-scale": Case(
        "human_judgments",
        {"judgments.jsonl": jl({**JUDGED, "score": 7, "judgment": None})},
        ["judgments.jsonl, line 1, field 'score'", "outside the scale 1..4"],
    ),
    "judgment-grade-disagrees-with-label": Case(
        "human_judgments",
        {"judgments.jsonl": jl({**JUDGED, "judgment": "4-Excellent"})},
        ["judgments.jsonl, line 1, field 'score'", "disagrees with judgment '4-Excellent'"],
    ),
    "judgment-missing-question-id": Case(
        "human_judgments",
        {"judgments.jsonl": jl({k: v for k, v in JUDGED.items() if k != "Question_ID"})},
        ["judgments.jsonl, line 1, field 'Question_ID'", "missing required field"],
    ),
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "project")


def _setup(project: Path, case: Case, **extra: Any) -> None:
    write_files(project / "data" / "raw" / "bad", case.files)
    write_dataset_config(
        project, "bad", adapter=case.adapter, path="data/raw/bad", options=case.options, **extra
    )


def test_there_are_at_least_twenty_cases() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("name", list(CASES))
def test_strict_mode_names_place_and_field_and_writes_nothing(
    name: str, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[name]
    _setup(project, case)
    result = run_curate(project, ["dataset=bad"], monkeypatch, capsys)
    assert result.code == 2, result.err
    message = result.err.strip().splitlines()[-1]
    assert message.startswith("error: ")
    for fragment in case.expected:
        assert fragment in message
    assert "Traceback" not in result.err
    assert output_files(project) == []


# Row-level cases a lenient run quarantines (file-level ones fail in both modes).
LENIENT = {
    "missing-text": "missing_field",
    "empty-text": "empty_text",
    "unknown-language": "unknown_language",
    "invalid-utf8": "invalid_utf8",
    "bad-date": "bad_date",
    "duplicate-id-other-content": "duplicate_id_conflict",
    "invalid-json": "invalid_json",
    "chat-log-timestamp": "bad_date",
    "indicquest-empty-question": "empty_text",
    "squad-answer-start": "invalid_value",
    "nomiracl-missing-passage": "missing_passage",
    "judgment-grade-off-scale": "invalid_value",
}


@pytest.mark.parametrize("name", list(LENIENT))
def test_lenient_mode_quarantines_the_row_with_its_reason(
    name: str, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[name]
    _setup(project, case, strict=False)
    result = run_curate(project, ["dataset=bad"], monkeypatch, capsys)
    assert result.code == 0, result.err
    curate_dir = project / "data" / "processed" / "bad" / "curate"
    quarantined = read_jsonl(curate_dir / "quarantine.jsonl")
    assert {row["reason"] for row in quarantined} == {LENIENT[name]}
    for row in quarantined:
        assert row["file"].endswith(next(iter(case.files)).split("/")[-1]) or row["file"]
        assert row["field"] and row["message"] and row["record"]
    report = json.loads((curate_dir / "report.json").read_text())
    assert report["quarantined"] == len(quarantined)
    assert report["dropped"][LENIENT[name]] == len(quarantined)
    assert report["rows_in"] - report["rows_out"] == sum(report["dropped"].values())


def test_lenient_mode_still_fails_on_a_file_level_error(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _setup(project, CASES["indicquest-missing-column"], strict=False)
    result = run_curate(project, ["dataset=bad"], monkeypatch, capsys)
    assert result.code == 2
    assert "Hindi.csv, line 1, field 'Domain'" in result.err
    assert output_files(project) == []


def test_quarantine_never_holds_the_original_pii(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {"id": "q2", "text": "call me on 98450 12345 or ravi.k@gmail.com", "language": "hn"}
    _setup(project, Case("healthbot", {"questions.jsonl": jl(Q1, bad)}, []), strict=False)
    assert run_curate(project, ["dataset=bad"], monkeypatch, capsys).code == 0
    for path in output_files(project):
        text = path.read_text(encoding="utf-8")
        assert "98450 12345" not in text and "ravi.k@gmail.com" not in text
    (row,) = read_jsonl(project / "data/processed/bad/curate/quarantine.jsonl")
    assert "[PHONE]" in row["record"] and "[EMAIL]" in row["record"]


def test_bad_configuration_names_the_key(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _setup(project, Case("healthbot", {"questions.jsonl": jl(Q1)}, [], {"qestions": "x"}))
    result = run_curate(project, ["dataset=bad"], monkeypatch, capsys)
    assert result.code == 2
    assert "dataset.options.qestions: unknown key" in result.err
    assert "adapter 'healthbot' options: questions, raw_dir" in result.err
    _setup(project, Case("healthbot", {"questions.jsonl": jl(Q1)}, []), languages=["hn"])
    result = run_curate(project, ["dataset=bad"], monkeypatch, capsys)
    assert result.code == 2 and "dataset.languages" in result.err
    assert "Unknown language 'hn'" in result.err
    _setup(project, Case("healtbot", {"questions.jsonl": jl(Q1)}, []))
    result = run_curate(project, ["dataset=bad"], monkeypatch, capsys)
    assert result.code == 2
    assert "Unknown dataset adapter 'healtbot'. Did you mean 'healthbot'" in result.err
    assert "Available: cataractbot, healthbot, human_judgments, indicquest" in result.err
    assert output_files(project) == []


@pytest.mark.parametrize("name", ["invalid-utf8", "squad-answer-start"])
def test_the_stage_process_exits_non_zero(name: str, project: Path) -> None:
    _setup(project, CASES[name])
    env = {**os.environ, "PARAKH_ROOT": str(project)}
    out = subprocess.run(
        [sys.executable, "-m", "parakh.stages.curate", "dataset=bad"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2
    for fragment in CASES[name].expected:
        assert fragment in out.stderr
    assert output_files(project) == []
