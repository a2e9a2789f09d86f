"""translate stage: `none` leaves the questions byte-identical; a translator adds the English
query on each row and a per-language report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from parakh.config import compose
from parakh.io import read_jsonl, write_jsonl
from parakh.layout import Layout
from parakh.schema import Passage, Question
from parakh.stages import translate

REPO = Path(__file__).resolve().parents[2]
DEMO_CURATED = REPO / "data" / "processed" / "demo" / "curate" / "questions.jsonl"


def _overrides(tmp_path: Path, *extra: str) -> list[str]:
    return [
        f"paths.processed={tmp_path / 'processed'}",
        f"paths.cache={tmp_path / 'c.sqlite'}",
        *extra,
    ]


@pytest.fixture
def curated(tmp_path: Path, tiny_questions: list[Question]) -> Path:
    """Curated questions of the `demo` dataset under a temp root: the real demo file when a
    previous pipeline run left one, else the tiny fixture plus a row using more fields."""
    path = Layout.of(compose(_overrides(tmp_path))).curated_questions
    path.parent.mkdir(parents=True)
    if DEMO_CURATED.is_file():
        shutil.copyfile(DEMO_CURATED, path)
    else:
        extra = Question(
            id="q4",
            text="दवा डालें?",
            language="hi",
            script="Devanagari",
            contexts=[Passage(id="p", text="दवा चार बार डालें।")],
            meta={"source": "test"},
        )
        write_jsonl(path, [*tiny_questions, extra])
    return path


def test_none_writes_the_input_rows_byte_for_byte(tmp_path: Path, curated: Path, capsys) -> None:
    cfg = compose(_overrides(tmp_path))
    assert cfg.translator.kind == "none"
    translate.main_task(cfg)
    out = Layout.of(cfg).translated_questions
    assert out.read_bytes() == curated.read_bytes()
    assert (
        out.read_text(encoding="utf-8").splitlines()
        == curated.read_text(encoding="utf-8").splitlines()
    )
    spec = json.loads(out.with_name("questions.runspec.json").read_text(encoding="utf-8"))
    assert spec["config"] == {"translator": {"kind": "none", "name": "none"}}
    assert sorted(p.name for p in out.parent.iterdir()) == [
        "questions.jsonl",
        "questions.runspec.json",
    ]
    assert not (tmp_path / "c.sqlite").exists()  # no cache opened for direct runs
    assert capsys.readouterr().out.startswith("translate (none): ")


def test_run_with_none_returns_the_same_objects(tiny_questions: list[Question]) -> None:
    assert translate.run(compose(), tiny_questions) is tiny_questions


def test_dictionary_translator_adds_english_queries_and_a_report(
    tmp_path: Path, curated: Path
) -> None:
    cfg = compose(_overrides(tmp_path, "translator=dictionary_demo"))
    translate.main_task(cfg)
    layout = Layout.of(cfg)
    rows = read_jsonl(layout.translated_questions, Question)
    originals = read_jsonl(curated, Question)
    assert [q.text for q in rows] == [q.text for q in originals]
    assert all(
        q.translation is not None and q.translation.translator == "dictionary_demo" for q in rows
    )
    for q in rows:
        assert q.translation is not None
        if q.language == "en":
            assert q.translation.status == "unchanged" and q.translation.text == q.text
        elif q.language == "hi" and q.script != "Latin":
            assert q.translation.status == "ok"
    report = json.loads(layout.translated_questions.with_name("report.json").read_text())
    assert report["translator"] == "dictionary_demo"
    assert sum(sum(c.values()) for c in report["by_language"].values()) == len(rows)
    assert (tmp_path / "c.sqlite").exists()
