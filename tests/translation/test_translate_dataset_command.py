"""`parakh translate-dataset`: files written, report counts, user errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.cli import main
from parakh.io import read_jsonl, write_jsonl
from parakh.schema import Question


def _run(*args: str) -> int:
    with pytest.raises(SystemExit) as done:
        main(["translate-dataset", *args])
    return int(done.value.code or 0)


def test_translates_filters_and_reports(tmp_path: Path, capsys) -> None:
    source = tmp_path / "questions.jsonl"
    write_jsonl(
        source,
        [
            Question(id="w", text="water", language="en", reference_answers=["cold"]),
            Question(id="c", text="cold water", language="en"),
        ],
    )
    extra = tmp_path / "entries.yaml"
    extra.write_text("hi:\n  पानी: water\n  ठंडा: cold\n  ठंडा पानी: ice\n", encoding="utf-8")
    out = tmp_path / "out"
    code = _run(
        "--input", str(source), "--languages", "hi", "--out", str(out),
        "translator=dictionary_demo", f"translator.path={extra}",
        f"paths.cache={tmp_path / 'cache.sqlite'}",
    )  # fmt: skip
    assert code == 0
    (kept,) = read_jsonl(out / "hi" / "questions.jsonl", Question)
    assert (kept.id, kept.text, kept.reference_answers) == ("w-hi", "पानी", ["ठंडा"])
    rows = [json.loads(line) for line in (out / "roundtrip.jsonl").read_text().splitlines()]
    assert [(r["id"], r["status"]) for r in rows] == [("w", "kept"), ("c", "dropped")]
    assert rows[1]["fields"][0]["back_translation"] == "ice"
    report = json.loads((out / "report.json").read_text())
    hi = report["languages"]["hi"]
    assert (hi["kept"], hi["dropped"], report["threshold"]) == (1, 1, 50.0)
    assert hi["chrf"]["max"] == 100.0
    assert "hi: kept 1, dropped 1" in capsys.readouterr().out


def test_none_translator_and_bad_threshold_are_user_errors(tmp_path: Path, capsys) -> None:
    assert _run("--languages", "hi") == 2
    assert "needs a translator" in capsys.readouterr().err
    assert _run("--languages", "hi", "--threshold", "150", "translator=dictionary_demo") == 2
    assert "outside chrF's range" in capsys.readouterr().err
