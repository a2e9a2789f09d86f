"""The healthbot adapter reads questions from CSV as from JSONL: the same fields, the same rows."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from parakh.datasets.healthbot import HealthbotOptions, load_healthbot
from parakh.datasets.rows import RowError, RowSink
from tests.conftest import REPO

DEMO = REPO / "data" / "raw" / "demo"


def _load(root: Path, questions: str | None = None) -> RowSink:
    sink = RowSink(strict=True)
    options = HealthbotOptions() if questions is None else HealthbotOptions(questions=questions)
    load_healthbot(root, options, sink)
    return sink


def _as_csv(jsonl: Path, csv_path: Path) -> None:
    rows = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines() if line]
    columns = sorted({k for row in rows for k in row})
    with csv_path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, columns)
        writer.writeheader()
        for row in rows:
            cells = {k: v for k, v in row.items()}
            if "categories" in cells:
                cells["categories"] = ";".join(cells["categories"])
            if "answerable" in cells:
                cells["answerable"] = str(cells["answerable"]).lower()
            writer.writerow(cells)


def test_the_demo_questions_as_csv_load_as_the_jsonl_does(tmp_path: Path) -> None:
    root = tmp_path / "demo_csv"
    root.mkdir()
    (root / "kb").symlink_to(DEMO / "kb")
    _as_csv(DEMO / "questions.jsonl", root / "questions.csv")  # the default falls back to it
    from_csv = _load(root)
    from_jsonl = _load(DEMO)
    assert len(from_csv.dataset.questions) == 80
    assert [q.model_dump() for q in from_csv.dataset.questions] == [
        q.model_dump() for q in from_jsonl.dataset.questions
    ]


def test_a_bad_csv_cell_names_file_line_and_field(tmp_path: Path) -> None:
    (tmp_path / "q.csv").write_text(
        "id,text,language,answerable\nq1,Can I eat?,en,true\nq2,Can I walk?,en,maybe\n",
        encoding="utf-8",
    )
    with pytest.raises(
        RowError, match=r"q.csv, line 3, field 'answerable': expected true or false"
    ):
        _load(tmp_path, "q.csv")
