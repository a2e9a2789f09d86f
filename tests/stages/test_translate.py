"""translate stage: `none` (direct inference) has nothing to translate and is refused; a
translator writes, per translate-test variant, the questions as asked in English (each with its
record), the retrieved chunks in English and a per-language report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from parakh.config import compose
from parakh.errors import ConfigError
from parakh.io import read_jsonl, write_jsonl
from parakh.schema import Passage, Question, Retrieval, RetrievedChunk
from parakh.stage_outputs import Layout
from parakh.stages import translate
from parakh.translation.translate_test import translate_inputs

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


def _retrieved(layout: Layout, questions: list[Question]) -> list[Retrieval]:
    """What index would retrieve: one Hindi chunk per question."""
    chunk = RetrievedChunk(
        chunk_id="c1", document_id="d", kind="raw", text="आँख में ड्रॉप डालें", score=0.5
    )
    rows = [Retrieval(question_id=q.id, raw_chunks=[chunk], kb_update_chunks=[]) for q in questions]
    write_jsonl(layout.retrieval, rows)
    return rows


def test_none_is_refused_and_writes_nothing(tmp_path: Path, curated: Path) -> None:
    cfg = compose(_overrides(tmp_path))
    assert cfg.translator.kind == "none"
    with pytest.raises(ConfigError, match="direct inference: there is nothing to translate"):
        translate.main_task(cfg)
    assert not (tmp_path / "processed" / "demo" / "translate").exists()
    assert not (tmp_path / "c.sqlite").exists()  # no cache opened for direct runs


def test_run_with_none_returns_the_same_objects(tiny_questions: list[Question]) -> None:
    questions, chunks = translate_inputs(compose().translator, tiny_questions, [], None)
    assert chunks == [] and len(questions) == len(tiny_questions)
    assert all(q is given for q, given in zip(questions, tiny_questions, strict=True))


def test_dictionary_translator_adds_english_queries_and_a_report(
    tmp_path: Path, curated: Path
) -> None:
    cfg = compose(_overrides(tmp_path, "translator=dictionary_demo"))
    layout = Layout.of(cfg)
    originals = read_jsonl(curated, Question)
    _retrieved(layout, originals)
    translate.main_task(cfg)
    folder = layout.translated("tt-dictionary_demo")  # a run by hand: named after the translator
    rows = read_jsonl(layout.asked_questions("tt-dictionary_demo"), Question)
    assert [q.id for q in rows] == [q.id for q in originals]
    assert all(
        q.translation is not None and q.translation.translator == "dictionary_demo" for q in rows
    )
    for q, original in zip(rows, originals, strict=True):
        assert q.translation is not None
        if original.language == "en":
            assert q.translation.status == "unchanged" and q.translation.text == original.text
        elif original.language == "hi" and original.script != "Latin":
            assert q.translation.status == "ok"
        if q.translation.status == "error":  # asked as it came: the row records why
            assert q.text == original.text and q.translation.error
        else:  # asked in English: the model sees the translation, the record keeps it
            assert q.text == q.translation.text and q.language == "en"
    chunks = read_jsonl(layout.asked_retrieval("tt-dictionary_demo"), Retrieval)
    assert {c.text for r in chunks for c in r.raw_chunks} == {"eye drops put them"}
    report = json.loads((folder / "report.json").read_text())
    assert report["translator"] == "dictionary_demo" and report["variant"] == "tt-dictionary_demo"
    assert sum(sum(c.values()) for c in report["by_language"].values()) == len(rows)
    assert (tmp_path / "c.sqlite").exists()
