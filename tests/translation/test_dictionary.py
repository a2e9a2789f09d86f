"""The phrase-table translator: longest match, pivoting, pass-through, controlled loss."""

from __future__ import annotations

import pytest

from parakh.config.translator import DictionaryTranslatorConfig
from parakh.errors import ConfigError
from parakh.text.languages import ENGLISH, LanguageTag
from parakh.translation.dictionary import DictionaryTranslator

HI, TA = LanguageTag.of("hi"), LanguageTag.of("ta")


def _translator(**entries: dict[str, str]) -> DictionaryTranslator:
    return DictionaryTranslator(
        DictionaryTranslatorConfig(name="dict", kind="dictionary", entries=entries)
    )


def test_longest_phrase_wins_and_unknown_words_pass_through() -> None:
    t = _translator(hi={"आँख": "eye", "आँख की दवा": "eye drops", "दवा": "medicine"})
    (out,) = t.translate_batch(["आँख की दवा डालें, आँख साफ़ रखें।"], HI, ENGLISH)
    assert out.text == "eye drops डालें, eye साफ़ रखें।"


def test_reverse_direction_is_case_insensitive_and_keeps_punctuation() -> None:
    t = _translator(hi={"आँख": "eye", "दवा": "drops", "आँख दवा": "eye medicine"})
    (forward,) = t.translate_batch(["Eye drops?"], ENGLISH, HI)
    assert forward.text == "आँख दवा?"
    (back,) = t.translate_batch([forward.text or ""], HI, ENGLISH)
    assert back.text == "eye medicine?"  # the round trip loses "drops": by design


def test_between_two_languages_goes_through_english() -> None:
    t = _translator(hi={"दवा": "medicine"}, ta={"மருந்து": "medicine"})
    (out,) = t.translate_batch(["दवा"], HI, TA)
    assert out.text == "மருந்து"


def test_missing_language_is_a_failure_per_sentence() -> None:
    t = _translator(hi={"दवा": "medicine"})
    results = t.translate_batch(["a", "b"], ENGLISH, LanguageTag.of("kn"))
    assert [r.ok for r in results] == [False, False]
    assert "no entries for language 'kn'" in (results[0].error or "")


def test_entries_must_use_our_codes() -> None:
    with pytest.raises(ConfigError, match="'hi'"):
        _translator(hin={"दवा": "medicine"})
