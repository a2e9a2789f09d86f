"""Generations as aggregate reads them (#19): the fast path gives the rows pydantic gives, and a
file it cannot read that way is read row by row, so a bad row is an error naming file, line and
field as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.errors import InputError
from parakh.io import read_jsonl
from parakh.report.answer_rows import Answer, read_answers
from parakh.schema import Generation

ROWS = [
    {"question_id": "q1", "model": "m", "status": "ok", "response": "नमस्ते <b>", "latency_s": 1.5,
     "messages": [{"role": "user", "content": "long prompt " * 50}], "usage": {"prompt_tokens": 9}},
    {"question_id": "q2", "model": "m", "status": "error", "error": "HTTP 500"},
    {"question_id": "q3", "model": "m", "status": "ok", "response": "", "finish_reason": "length"},
]  # fmt: skip


def _write(path: Path, rows: list[dict], prefix: bytes = b"") -> Path:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    path.write_bytes(prefix + text.encode("utf-8"))
    return path


def test_the_answers_read_are_the_validated_rows_fields(tmp_path: Path) -> None:
    path = _write(tmp_path / "m.jsonl", ROWS)
    assert read_answers(path) == [Answer.of(g) for g in read_jsonl(path, Generation)]


def test_blank_lines_read_the_same_rows_and_a_byte_order_mark_is_refused_as_before(
    tmp_path: Path,
) -> None:
    plain = read_answers(_write(tmp_path / "a.jsonl", ROWS))
    with pytest.raises(InputError, match="BOM"):
        read_answers(_write(tmp_path / "b.jsonl", ROWS, prefix=b"\xef\xbb\xbf"))
    spaced = tmp_path / "c.jsonl"
    spaced.write_text("\n" + "\n \n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    assert read_answers(spaced) == plain


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"response": 123}, "response"),
        ({"status": "maybe"}, "status"),
        ({"question_id": None}, "question_id"),
        ({"latency_s": "slow"}, "latency_s"),  # not read here: the row is still validated
        ({"surprise": 1}, "surprise"),
    ],
)
def test_a_bad_row_is_an_error_naming_file_line_and_field(
    tmp_path: Path, change: dict, field: str
) -> None:
    rows = [ROWS[0], {**ROWS[1], **change}, ROWS[2]]
    path = _write(tmp_path / "m.jsonl", rows)
    with pytest.raises(InputError) as found:
        read_answers(path)
    message = str(found.value)
    assert "m.jsonl" in message and "2" in message and field in message
