"""Atomic writes: an output appears only complete; strict reads name the file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.errors import InputError
from parakh.io import atomic_open, iter_json_objects, read_jsonl, write_jsonl
from parakh.schema import Question


def test_failed_write_leaves_no_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "out" / "rows.jsonl"
    with pytest.raises(RuntimeError), atomic_open(target) as f:
        f.write("partial\n")
        raise RuntimeError("crash mid-write")
    assert not target.exists()
    assert list(target.parent.iterdir()) == []


def test_failed_write_keeps_the_previous_complete_file(tmp_path: Path) -> None:
    target = tmp_path / "rows.jsonl"
    target.write_text("old\n")

    def rows():
        yield {"a": 1}
        raise ValueError("bad row")

    with pytest.raises(ValueError):
        write_jsonl(target, rows())
    assert target.read_text() == "old\n"


def test_written_files_are_readable_by_others(tmp_path: Path) -> None:
    target = tmp_path / "rows.jsonl"
    write_jsonl(target, [{"a": 1}])
    assert target.stat().st_mode & 0o044 == 0o044


@pytest.mark.parametrize(
    ("content", "line", "field"),
    [
        ('{"id": "q1", "text": "hi", "language": "en"}\nnot json\n', 2, None),
        ('{"id": "q1", "text": "", "language": "en"}\n', 1, "text"),
        ('{"id": "q1", "language": "en"}\n', 1, "text"),
        ('{"id": "q1", "text": "x", "language": "en", "asked_at": "yesterday"}\n', 1, "asked_at"),
        ('{"id": "q1", "text": "x", "language": "en", "colour": "red"}\n', 1, "colour"),
        ("[1, 2]\n", 1, None),
    ],
)
def test_strict_read_names_file_line_and_field(
    tmp_path: Path, content: str, line: int, field: str | None
) -> None:
    path = tmp_path / "questions.jsonl"
    path.write_text(content)
    with pytest.raises(InputError) as err:
        read_jsonl(path, Question)
    assert err.value.line == line and err.value.field == field
    assert str(path) in str(err.value) and f"line {line}" in str(err.value)


def test_invalid_utf8_is_reported_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "questions.jsonl"
    path.write_bytes(b'{"id": "q1", "text": "ok", "language": "en"}\n{"id": "\xff"}\n')
    with pytest.raises(InputError, match="invalid UTF-8") as err:
        read_jsonl(path, Question)
    assert err.value.line == 2


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_line_separator_inside_a_string_stays_in_its_row(tmp_path: Path, separator: str) -> None:
    """JSON strings hold these raw (ensure_ascii=False); str.splitlines() would split at them."""
    path = tmp_path / "rows.jsonl"
    rows = [{"id": "a", "response": f"one{separator}two"}, {"id": "b", "response": "three"}]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    assert [obj for _, obj in iter_json_objects(path)] == rows
    assert [line for line, _ in iter_json_objects(path)] == [1, 2]


def test_a_progress_row_with_a_line_separator_is_kept(tmp_path: Path) -> None:
    from parakh.backends.runner import read_progress

    path = tmp_path / "progress.jsonl"
    row = {"_key": "q1", "response": "one\u2028two"}
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", "utf-8")
    assert read_progress(path) == {"q1": row}
