"""The leaderboard's NoMIRACL released-code table, read from the judge summaries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.errors import InputError
from parakh.report.released_table import ReleasedTable
from parakh.stage_outputs import summary_path

HI = {
    "released_table": {
        "non_relevant": {"outputs": 3, "Accuracy": 33.3333, "Hallucination": 0.0, "Invalid": 0.0},
        "relevant": None,
    }
}
TE = {
    "released_table": {
        "non_relevant": None,
        "relevant": {"outputs": 2, "Accuracy": 50.0, "Error": 50.0, "Invalid": 0.0},
    }
}


def _judge_file(folder: Path, model: str, summary: dict | None) -> Path:  # type: ignore[type-arg]
    rows = folder / f"{model}.jsonl"
    rows.write_text("", encoding="utf-8")
    if summary is not None:
        summary_path(rows).write_text(json.dumps(summary), encoding="utf-8")
    return rows


def test_cells_per_model_language_and_subset(tmp_path: Path) -> None:
    a = _judge_file(tmp_path, "a", {"nomiracl": {"hi": HI, "te": TE, "all": HI}})
    b = _judge_file(tmp_path, "b", {"nomiracl": {"hi": HI}})
    table = ReleasedTable.read({"a": a, "b": b})
    assert table is not None
    assert table.cells == {
        "a": {"hi": {"non_relevant": HI["released_table"]["non_relevant"]},
              "te": {"relevant": TE["released_table"]["relevant"]}},
        "b": {"hi": {"non_relevant": HI["released_table"]["non_relevant"]}},
    }  # fmt: skip
    text = "\n".join(table.markdown())
    assert "non_relevant (Accuracy / Hallucination / Invalid, %):" in text
    assert "| model | hi |" in text and "| a | 33.3333 / 0.0 / 0.0 |" in text
    assert "relevant (Accuracy / Error / Invalid, %):" in text
    assert "| b | – |" in text  # no relevant outputs of b in te


def test_no_table_without_nomiracl_summaries(tmp_path: Path) -> None:
    rows = _judge_file(tmp_path, "a", {"rows": 3})
    assert ReleasedTable.read({"a": rows, "b": _judge_file(tmp_path, "b", None)}) is None


def test_a_malformed_summary_names_its_file(tmp_path: Path) -> None:
    rows = _judge_file(tmp_path, "a", {"nomiracl": {"hi": {"hallucination": 0.1}}})
    with pytest.raises(InputError, match=r"a\.summary\.json.*released_table"):
        ReleasedTable.read({"a": rows})
