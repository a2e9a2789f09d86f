"""The shared row readers (curate's adapters and `parakh score` read through them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.datasets import load_dataset
from parakh.datasets.records import file_records
from parakh.datasets.rows import RowError

BOM = b"\xef\xbb\xbf"


@pytest.mark.parametrize(
    ("name", "content", "lines"),
    [
        ("rows.jsonl", b'{"id": "a"}\n{"id": "b"}\n', [1, 2]),
        ("rows.csv", b"id\na\nb\n", [2, 3]),
    ],
    ids=["jsonl", "csv"],
)
def test_a_byte_order_mark_is_dropped_before_the_first_row(
    tmp_path: Path, name: str, content: bytes, lines: list[int]
) -> None:
    path = tmp_path / name
    path.write_bytes(BOM + content)
    records = list(file_records(path, ["id"]))
    assert [(r.line, r.text("id")) for r in records] == list(zip(lines, ["a", "b"], strict=True))
    assert list(records[0].values) == ["id"]


def test_only_a_leading_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b'{"id": "a"}\n' + BOM + b'{"id": "b"}\n')
    with pytest.raises(RowError, match="line 2"):
        list(file_records(path, ["id"]))


def test_curate_reads_a_jsonl_file_that_starts_with_a_byte_order_mark(tmp_path: Path) -> None:
    pair = {"id": "a1", "question": "What is glaucoma?", "answer": "Raised eye pressure."}
    path = tmp_path / "qa.jsonl"
    path.write_bytes(BOM + json.dumps(pair).encode("utf-8") + b"\n")
    loaded = load_dataset("qa_jsonl", tmp_path, {"file": "qa.jsonl"})
    assert [q.id for q in loaded.questions] == ["a1"] and loaded.rejected == []
