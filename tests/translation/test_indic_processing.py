"""IndicTrans2 text preparation: script unification, digits, placeholders, tokenization."""

from __future__ import annotations

import pytest

from parakh.text.languages import ENGLISH, LanguageTag
from parakh.translation.indic_processing import (
    ascii_digits,
    convert_script,
    detokenize,
    postprocess,
    preprocess,
    tokenize,
)


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("வணக்கம் மருந்து", "Tamil"),
        ("ಕಣ್ಣಿನ ಹನಿ", "Kannada"),
        ("కంటి చుక్కలు", "Telugu"),
        ("চোখের ড্রপ", "Bengali"),
        ("ਅੱਖ ਦੀ ਦਵਾਈ", "Gurmukhi"),
    ],
)
def test_brahmic_scripts_round_trip_through_devanagari(text: str, script: str) -> None:
    deva = convert_script(text, script, "Devanagari")
    assert all(not ("\u0980" <= ch <= "\u0dff") for ch in deva)  # nothing left outside Deva
    assert convert_script(deva, "Devanagari", script) == text


def test_preprocess_puts_tags_first_and_text_in_devanagari() -> None:
    ta = LanguageTag.of("ta")
    prepared = preprocess("மருந்து போடுங்கள்.", ta, ENGLISH, ("tam_Taml", "eng_Latn"))
    tags, text = prepared.text.split(" ", 2)[:2], prepared.text.split(" ", 2)[2]
    assert tags == ["tam_Taml", "eng_Latn"]
    assert text == convert_script("மருந்து போடுங்கள் .", "Tamil", "Devanagari")


def test_urls_and_numbers_survive_as_placeholders() -> None:
    hi = LanguageTag.of("hi")
    prepared = preprocess(
        "Call 98765 43210 or 080-2345-6789, see https://example.org/eye.",
        ENGLISH,
        hi,
        ("eng_Latn", "hin_Deva"),
    )
    assert "https" not in prepared.text and "080" not in prepared.text
    assert "<ID1>" in prepared.text
    model_output = " ".join(f"[ID {k}]" for k in prepared.entities) + " ।"
    restored = postprocess(model_output, hi, prepared.entities)
    for entity in prepared.entities.values():
        assert entity in restored


def test_native_digits_become_ascii() -> None:
    assert ascii_digits("४ बार, ೧೦ ದಿನ") == "4 बार, 10 ದಿನ"


def test_tokenize_and_detokenize() -> None:
    tokens = tokenize("Don't stop it (ever), take 3.5 mg; दिन में 2 बार।")
    assert tokens == "Don 't stop it ( ever ) , take 3.5 mg ; दिन में 2 बार ।"
    assert detokenize(tokens) == "Don't stop it (ever), take 3.5 mg; दिन में 2 बार।"


def test_postprocess_writes_the_target_script() -> None:
    kn = LanguageTag.of("kn")
    deva = convert_script("ಕಣ್ಣಿನ ಹನಿ", "Kannada", "Devanagari")
    assert postprocess(f"{deva} .", kn, {}) == "ಕಣ್ಣಿನ ಹನಿ."
