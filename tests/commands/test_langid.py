"""`parakh langid FILE --column NAME [--out OUT]` labels the rows of a file a user brings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.cli import main


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(["langid", *args])
    out, err = capsys.readouterr()
    return int(exit_info.value.code or 0), out, err


def test_csv_rows_are_labelled_to_a_jsonl_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "messages.csv"
    source.write_text(
        "id,message\n"
        "m1,surgery ke baad kitne din tak eye drops dalne hai?\n"
        "m2,ಶಸ್ತ್ರಚಿಕಿತ್ಸೆಯ ನಂತರ ಎಷ್ಟು ದಿನ ವಿಶ್ರಾಂತಿ ಬೇಕು?\n"
        "m3,naanu yaavaga snana madabahudu\n"
        "m4,What precautions should be taken after the surgery?\n"
        "m5,\n",
        encoding="utf-8",
    )
    out_path = tmp_path / "labels.jsonl"
    code, _, err = _run([str(source), "--column", "message", "--out", str(out_path)], capsys)
    assert code == 0 and "5 rows labelled" in err
    rows = [json.loads(line) for line in out_path.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ["m1", "m2", "m3", "m4", "m5"]
    got = [(r["language"], r["script"], r["romanized"], r["code_mixed"]) for r in rows]
    assert got == [
        ("hi", "Latin", True, True),
        ("kn", "Kannada", False, False),
        ("kn", "Latin", True, False),
        ("en", "Latin", False, False),
        ("und", "Unknown", False, False),  # an empty message is a row, not an error
    ]
    assert rows[0]["matrix_language"] == "hi" and rows[0]["embedded_languages"] == ["en"]
    assert {r["label_source"] for r in rows} == {"detected"}


def test_jsonl_to_stdout_with_line_numbers_as_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "q.jsonl"
    source.write_text(
        json.dumps({"question": "मोतियाबिंद के ऑपरेशन के बाद कितने दिन आराम करना चाहिए?"})
        + "\n\n"
        + json.dumps({"question": "operation aana aprom evlo naal rest venum"})
        + "\n",
        encoding="utf-8",
    )
    code, out, _ = _run([str(source), "--column", "question"], capsys)
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["id"], r["language"]) for r in rows] == [("1", "hi"), ("3", "ta")]


def test_real_cataractbot_file(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = shared_data / "cataractbot" / "kb_update_qa.jsonl"
    code, out, _ = _run([str(source), "--column", "question"], capsys)
    assert code == 0
    rows = {r["id"]: r for r in map(json.loads, out.splitlines())}
    assert len(rows) == 210
    not_english = {
        i: (r["language"], r["romanized"]) for i, r in rows.items() if r["language"] != "en"
    }
    assert not_english == {
        "Generic-045": ("hi", True),
        "Generic-052": ("hi", True),
        "Generic-105": ("kn", True),
        "Generic-172": ("kn", False),
    }


@pytest.mark.parametrize(
    ("content", "args", "expected"),
    [
        (b"id,text\n1,hello\n", ["--column", "message"], "line 1, field 'message': missing column"),
        (b'{"id": 1, "text": "ok"}\n{"id": 2}\n', ["--column", "text"],
         "line 2, field 'text': missing column"),
        (b'{"id": 1, "text": "caf\xe9"}\n', ["--column", "text"],
         "line 1, field 'text': invalid UTF-8 (byte 0xe9)"),
        (b'{"id": 1, "text": 5}\n', ["--column", "text"], "line 1, field 'text': expected text"),
    ],
)  # fmt: skip
def test_bad_input_names_line_and_field(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes,
    args: list[str],
    expected: str,
) -> None:
    source = tmp_path / ("in.csv" if content.startswith(b"id,") else "in.jsonl")
    source.write_bytes(content)
    out_path = tmp_path / "out.jsonl"
    code, _, err = _run([str(source), *args, "--out", str(out_path)], capsys)
    assert code == 2
    assert f"{source.name}, {expected}" in err
    assert not out_path.exists()


def test_unknown_hint_names_close_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.csv"
    source.write_text("id,text\n1,hello\n", encoding="utf-8")
    code, _, err = _run([str(source), "--column", "text", "--hint", "hindii"], capsys)
    assert code == 2 and "Unknown language 'hindii'. Did you mean 'hi' (Hindi)" in err
