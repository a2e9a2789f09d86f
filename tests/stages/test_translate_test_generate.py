"""Translate-test through its stages: translate, generate (in English), back-translate, judge.

Runs the stages' `main_task`s on a temp tree with the dictionary translator and a scripted
model, so the wiring of all four is checked end to end, offline; generate never translates.
"""

from __future__ import annotations

from pathlib import Path

from parakh.config import compose
from parakh.config.model import ScriptedModel
from parakh.io import read_jsonl, write_jsonl
from parakh.schema import Generation, Judgment, Question, Retrieval
from parakh.stage_outputs import Layout, generation_name
from parakh.stages import backtranslate, generate, judge, translate


def test_translate_test_asks_in_english_and_back_translates(tmp_path: Path, tiny_questions) -> None:
    hindi = Question(
        id="h1",
        text="ऑपरेशन के बाद आँख में ड्रॉप दिन में कितनी बार डालनी है?",
        language="hi",
        reference_answers=["दिन में चार बार।"],
    )
    overrides = [
        f"paths.processed={tmp_path / 'processed'}",
        f"paths.cache={tmp_path / 'cache.sqlite'}",
        "translator=dictionary_demo",
        "judge=reference",
        "tracking.enabled=false",
    ]
    cfg = compose(overrides)
    scripted = ScriptedModel(
        name="echo", backend="scripted", default_response="Put the eye drops four times a day."
    )
    cfg = cfg.model_copy(update={"model": scripted})
    layout = Layout.of(cfg)
    write_jsonl(layout.curated_questions, [hindi])
    write_jsonl(layout.retrieval, [Retrieval(question_id="h1", raw_chunks=[], kb_update_chunks=[])])
    translate.main_task(cfg)
    asked = read_jsonl(layout.asked_questions("tt-dictionary_demo"), Question)[0]
    assert asked.translation is not None and "after the operation" in asked.translation.text
    assert asked.text == asked.translation.text  # the model is asked in English

    generate.main_task(cfg)
    name = generation_name(cfg)
    assert name == "echo@tt-dictionary_demo"  # never overwrites the direct run's file
    english = read_jsonl(layout.pivot_generations(name), Generation)[0]
    assert english.response == "Put the eye drops four times a day."
    assert not layout.generations(name).exists()  # judge's file comes from back-translate

    backtranslate.main_task(cfg)
    row = read_jsonl(layout.generations(name), Generation)[0]
    system, user = row.messages[0]["content"], row.messages[-1]["content"]
    assert "you must respond in English" in system
    assert "after the operation" in user
    assert row.translation is not None
    assert row.translation.pivot_response == "Put the eye drops four times a day."
    assert row.response != row.translation.pivot_response  # the back-translation is judged
    assert row.translation.query is not None and "after the operation" in row.translation.query

    judge.main_task(cfg)
    rows = read_jsonl(layout.judgments(cfg.judge.name, name), Judgment)
    assert rows and all(r.translator == "dictionary_demo" for r in rows)
