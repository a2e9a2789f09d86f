"""The detection form of text: what zero-width characters, look-alike letters, styled letters
and native digits become, and what they leave alone."""

from __future__ import annotations

import re

import pytest

from parakh.text.lookalikes import detection_forms, pattern_form, skeleton


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ig\u200bnore", "ignore"),  # zero-width space inside a word
        ("ig\u200cno\u200dre\u2060", "ignore"),  # ZWNJ, ZWJ, word joiner
        ("pre\u00advious", "previous"),  # soft hyphen
        ("\ufeffIgnore", "ignore"),  # byte-order mark
        ("\u0406gn\u043er\u0435", "ignore"),  # Cyrillic І, о, е
        ("\u0399GN\u039fR\u0395", "ignore"),  # Greek Ι, Ο, Ε
        ("ｉｇｎｏｒｅ", "ignore"),  # full width
        ("𝐢𝐠𝐧𝐨𝐫𝐞", "ignore"),  # mathematical bold
        ("ɪgnore", "ignore"),  # Latin small capital I
        ("Ïgnöré", "ignore"),  # Latin accents
        ("i\u034fgnore\ufe0f", "ignore"),  # combining grapheme joiner, variation selector
        ("५ अंक", "5 अंक"),  # Devanagari digit
        ("۵ نمبر", "5 نمبر"),  # Extended Arabic-Indic digit
        ("پچھلي", "پچھلی"),  # Arabic yeh as Urdu yeh
    ],
)
def test_skeleton_undoes_the_disguise(text: str, expected: str) -> None:
    assert skeleton(text) == pattern_form(expected).casefold()


@pytest.mark.parametrize(
    "text",
    [
        "ऑपरेशन के बाद आराम करें।",
        "கண் சொட்டு மருந்தை தினமும் போடுங்கள்.",
        "ಶಸ್ತ್ರಚಿಕಿತ್ಸೆಯ ನಂತರ ವಿಶ್ರಾಂತಿ ಪಡೆಯಿರಿ.",
        "শস্ত্রোপচারের পরে বিশ্রাম নিন।",
    ],
)
def test_indic_text_keeps_its_letters_and_signs(text: str) -> None:
    assert skeleton(text) == pattern_form(text)


def test_nukta_and_chillu_forms_meet_their_patterns() -> None:
    precomposed, decomposed = "\u095b", "\u091c\u093c"  # ज़ typed two ways
    assert skeleton(f"नजरअंदाज{precomposed}") == skeleton(f"नजरअंदाज{decomposed}")
    assert re.search(pattern_form("नज़र"), skeleton(f"न{precomposed}र"))
    chillu, old_encoding = "\u0d7b", "\u0d28\u0d4d\u200d"  # Malayalam chillu n, two encodings
    assert skeleton(f"മുൻ{chillu}") == skeleton(f"മുൻ{old_encoding}")
    assert re.search(pattern_form(f"മുഴുവ{chillu}"), skeleton(f"മുഴുവ{old_encoding}"))


def test_a_zero_width_space_is_read_both_ways() -> None:
    assert detection_forms("plain text") == ("plain text",)
    assert detection_forms("ig\u200bnore all\u200bprevious") == (
        "ignore allprevious",
        "ig nore all previous",
    )
