"""Abstention read by the answer prompt's own refusal, in the question's language: real-looking
answers in en/hi/kn/ta/te, look-alikes that must not count, and NoMIRACL's verdicts
(tests/judging/cases/abstention.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.errors import ConfigError
from parakh.judging.abstention import abstention_reader
from parakh.prompts.template import load_prompt
from parakh.schema import Question

CASES = json.loads((Path(__file__).parent / "cases" / "abstention.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda c: c["why"])
def test_abstention(case: dict[str, str]) -> None:
    read = abstention_reader(load_prompt(case["prompt"]), "lenient")
    question = Question(id="q", text="q", language=case["language"])
    assert read(case["answer"], question).label == case["expected"]


def test_every_language_has_an_abstention_and_a_look_alike() -> None:
    for language in ("en", "hi", "kn", "ta", "te"):
        found = {c["expected"] for c in CASES["cases"] if c["language"] == language}
        assert {"abstained", "answered"} <= found, language


def test_the_answer_language_is_read_too() -> None:
    read = abstention_reader(load_prompt("healthbot_demo"), "lenient")
    asked_in_english = Question(id="q", text="q", language="en", response_language="ta")
    assert read("உங்கள் கேள்விக்கான பதில் எனக்குத் தெரியாது.", asked_in_english).label == "abstained"


def test_a_prompt_without_a_refusal_or_verdict_cannot_be_read() -> None:
    with pytest.raises(ConfigError, match="has neither"):
        abstention_reader(load_prompt("xquad_extractive"), "lenient")


def test_refusal_translations_take_language_aliases() -> None:
    prompt = load_prompt("healthbot_demo").model_copy()
    checked = type(prompt).model_validate(
        {**prompt.model_dump(), "refusal_translations": {"Hindi": ["मुझे नहीं पता।"]}}
    )
    assert checked.refusal_translations == {"hi": ["मुझे नहीं पता।"]}
    with pytest.raises(ConfigError, match="Unknown language 'hindee'"):
        type(prompt).model_validate({**prompt.model_dump(), "refusal_translations": {"hindee": []}})
