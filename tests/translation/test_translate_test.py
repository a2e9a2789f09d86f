"""Translate-test end to end with the dictionary translator: English query, English answer,
back-translated answer, every intermediate text kept, failures as error rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.backends.cache import ResponseCache
from parakh.config import compose
from parakh.config.stage_config import ParakhConfig
from parakh.config.translator import DictionaryTranslatorConfig
from parakh.prompts.template import context_of, load_prompt, render_turns
from parakh.schema import Generation, Passage, Question, Retrieval, RetrievedChunk
from parakh.translation.service import make_service
from parakh.translation.translate_test import (
    back_translate_generations,
    question_for_prompt,
    translate_inputs,
    translate_retrievals,
)

ENTRIES = {
    "hi": {
        "ऑपरेशन के बाद": "after the operation",
        "आँख में ड्रॉप": "eye drops",
        "दिन में कितनी बार": "how many times a day",
        "डालनी है": "should I put",
        "डालें": "put them",
        "चार बार": "four times",
        "दो सप्ताह तक": "for two weeks",
        "दवा": "medicine",
    }
}
ANSWERS = {
    "hi1": "Put them four times a day for two weeks.",
    "en1": "Four times a day.",
    "kn1": "I do not know.",
    "hi2": "Put them four times.",
}


@pytest.fixture
def cfg() -> ParakhConfig:
    translator = DictionaryTranslatorConfig(name="dict", kind="dictionary", entries=ENTRIES)
    return compose().model_copy(update={"translator": translator})


@pytest.fixture
def questions() -> list[Question]:
    return [
        Question(id="hi1", text="ऑपरेशन के बाद आँख में ड्रॉप दिन में कितनी बार डालनी है?", language="hi"),
        Question(id="en1", text="How often should I put the eye drops?", language="en"),
        Question(id="kn1", text="ಕಣ್ಣಿನ ಹನಿ ಎಷ್ಟು ಬಾರಿ?", language="kn"),
        Question(
            id="hi2",
            text="दवा डालें?",
            language="hi",
            contexts=[
                Passage(id="p1", text="दवा चार बार डालें।"),
                Passage(id="p2", text="Rest well."),
            ],
        ),
    ]


def _generations(asked: list[Question]) -> list[Generation]:
    """What the generate stage makes of the asked questions (a scripted English answerer)."""
    prompt = load_prompt("healthbot")
    return [
        Generation(
            question_id=q.id,
            model="fake",
            status="ok",
            response=ANSWERS[q.id],
            messages=[
                {"role": r, "content": c}
                for r, c in render_turns(prompt, q, context_of(prompt, q, None))
            ],
        )
        for q in asked
    ]


def test_translate_test_end_to_end(cfg, questions, tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite")
    translated, _ = translate_inputs(cfg.translator, questions, [], cache)

    hi1, en1, kn1, hi2 = (q.translation for q in translated)
    assert hi1 is not None and hi1.status == "ok"
    assert hi1.text == "after the operation eye drops how many times a day should I put?"
    assert [q.text for q in translated] == [q.text for q in questions]  # originals kept
    assert en1 is not None and en1.status == "unchanged" and en1.text == questions[1].text
    assert kn1 is not None and kn1.status == "error" and "'kn'" in (kn1.error or "")
    assert hi2 is not None and hi2.contexts is not None
    assert [p.text for p in hi2.contexts] == ["medicine four times put them।", "Rest well."]

    asked = [question_for_prompt(q) for q in translated]
    assert (asked[0].text, asked[0].answer_language) == (hi1.text, "en")
    assert (asked[2].text, asked[2].answer_language) == (questions[2].text, "kn")
    system, user = _generations(asked)[0].messages
    assert "The query is in English; always reply in English." in system["content"]
    assert f"Query: {hi1.text}" in user["content"]
    assert [p.text for p in asked[3].contexts] == ["medicine four times put them।", "Rest well."]

    rows = back_translate_generations(cfg.translator, translated, _generations(asked), cache)
    by_id = {g.question_id: g for g in rows}
    assert by_id["hi1"].status == "ok"
    assert by_id["hi1"].response == "डालें चार बार a day दो सप्ताह तक."
    t = by_id["hi1"].translation
    assert t is not None and t.status == "ok" and t.target_language == "hi"
    assert t.query == hi1.text and t.pivot_response == ANSWERS["hi1"]
    assert by_id["en1"].response == ANSWERS["en1"]
    assert by_id["en1"].translation is not None
    assert by_id["en1"].translation.status == "unchanged"
    assert by_id["kn1"].status == "error" and by_id["kn1"].response is None
    assert "query translation failed" in (by_id["kn1"].error or "")
    assert by_id["kn1"].translation is not None
    assert by_id["kn1"].translation.pivot_response == ANSWERS["kn1"]  # kept for inspection
    assert by_id["hi2"].response == "डालें चार बार."


def test_retrieved_chunks_are_translated_and_failures_fail_the_item(cfg, questions) -> None:
    translated, _ = translate_inputs(cfg.translator, questions, [], None)
    chunk = RetrievedChunk(
        chunk_id="c1", document_id="d", kind="raw", text="दवा चार बार डालें।", score=1.0
    )
    english = RetrievedChunk(chunk_id="c2", document_id="d", kind="raw", text="Rest.", score=0.5)
    kannada = RetrievedChunk(
        chunk_id="c3", document_id="d", kind="update", text="ಕಣ್ಣಿನ ಹನಿ", score=0.4
    )
    retrievals = [
        Retrieval(question_id="hi1", raw_chunks=[chunk, english], kb_update_chunks=[]),
        Retrieval(question_id="en1", raw_chunks=[], kb_update_chunks=[kannada]),
    ]
    service = make_service(cfg.translator, None)
    out, checked = translate_retrievals(service, translated, retrievals)
    assert [c.text for c in out[0].raw_chunks] == ["medicine four times put them।", "Rest."]
    # The failed chunk stays as retrieved and fails its question's record (query kept).
    record = checked[1].translation
    assert out[1] == retrievals[1] and record is not None and record.status == "error"
    assert "c3" in (record.error or "") and record.text == questions[1].text
    assert checked[0] == translated[0]
    asked = [question_for_prompt(q) for q in checked]
    rows = back_translate_generations(cfg.translator, checked, _generations(asked), None)
    en1 = next(g for g in rows if g.question_id == "en1")
    assert en1.status == "error" and "context translation failed" in (en1.error or "")
    assert "chunk c3" in (en1.error or "")


def test_none_translator_passes_everything_through(questions) -> None:
    cfg = compose()
    assert cfg.translator.kind == "none"
    assert all(question_for_prompt(q) is q for q in questions)  # no translation record
    generations = _generations(questions[:2])
    assert back_translate_generations(cfg.translator, questions, generations, None) == generations
    assert all(g.model_dump(mode="json")["translation"] is None for g in generations)
