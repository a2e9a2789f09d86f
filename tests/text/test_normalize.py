"""Answer normalisation: SQuAD v1.1 on ASCII English, Unicode-aware on every other script."""

from __future__ import annotations

import json
import random
import string
import sys
import unicodedata
from pathlib import Path

import pytest
from tests.metrics.test_lexical_metrics import squad_normalize_answer

from parakh.errors import ConfigError
from parakh.text.normalize import canonical_text, is_english, normalize_answer

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def test_equals_squad_on_random_ascii() -> None:
    rng = random.Random(0)
    alphabet = string.ascii_letters + string.digits + string.punctuation + " \t\n"
    words = ["a", "an", "the", "The", "A", "AN", "then", "anthem", "at", "them", "a.", "the-"]
    for _ in range(5000):
        parts = [
            rng.choice(words)
            if rng.random() < 0.4
            else "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
            for _ in range(rng.randint(0, 8))
        ]
        text = rng.choice([" ", "", "  ", "\n"]).join(parts)
        assert normalize_answer(text, "en") == squad_normalize_answer(text), repr(text)


def test_equals_squad_on_xquad_english_text() -> None:
    path = SHARED_DATA / "xquad" / "xquad.en.json"
    if not path.is_file():
        pytest.skip(f"shared data not available: {path}")
    data = json.loads(path.read_text(encoding="utf-8"))
    texts = [
        t
        for article in data["data"]
        for paragraph in article["paragraphs"]
        for t in [paragraph["context"]]
        + [qa["question"] for qa in paragraph["qas"]]
        + [qa["answers"][0]["text"] for qa in paragraph["qas"]]
    ]
    ascii_texts = [t for t in texts if t.isascii()]
    assert len(ascii_texts) > 1700
    for text in ascii_texts:
        assert normalize_answer(text, "en") == squad_normalize_answer(text)


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("The Eiffel Tower!", "en", "eiffel tower"),
        ("The Eiffel Tower!", "English", "eiffel tower"),
        ("The Eiffel Tower!", "en-IN", "eiffel tower"),
        ("The Eiffel Tower!", "hi", "the eiffel tower"),
        ("The Eiffel Tower!", None, "the eiffel tower"),
        ("नई दिल्ली।", "hi", "नई दिल्ली"),
        ("राम॥ श्याम", "hi", "राम श्याम"),
        ("“नई” ‘दिल्ली’ — भारत", "hi", "नई दिल्ली भारत"),
        ("१९४७ में", "hi", "1947 में"),
        ("১৯৪৭ সালে", "bn", "1947 সালে"),
        ("கி.மு. 300", "ta", "கிமு 300"),
        ("نئی دہلی، بھارت۔ کیوں؟", "ur", "نئی دہلی بھارت کیوں"),
        ("ꯃꯤꯇꯩꯂꯣꯟ꯫", "mni", "ꯃꯤꯇꯩꯂꯣꯟ"),
        ("ＡＢＣ　１２３", "en", "abc 123"),
        ("ﻛﺘﺎﺏ", "ur", "كتاب"),
        ("₹ 500", "hi", "500"),
        ("1½ km²", None, "1½ km²"),
        ("ﬁnal ⑴", "en", "final 1"),
        ("\U0001d407\U0001d422 \u210d", None, "hi h"),
        ("  a\u00a0\u00a0b  ", None, "a b"),
        ("", "en", ""),
    ],
)
def test_normalize_answer(text: str, language: str | None, expected: str) -> None:
    assert normalize_answer(text, language) == expected


@pytest.mark.parametrize(
    ("precomposed", "decomposed"),
    [
        ("\u0958", "\u0915\u093c"),  # qa
        ("\u0959", "\u0916\u093c"),  # khha
        ("\u095a", "\u0917\u093c"),  # ghha
        ("\u095b", "\u091c\u093c"),  # za
        ("\u095c", "\u0921\u093c"),  # dddha
        ("\u095d", "\u0922\u093c"),  # rha
        ("\u095e", "\u092b\u093c"),  # fa
        ("\u095f", "\u092f\u093c"),  # yya
        ("\u0929", "\u0928\u093c"),  # nnna (composes under NFC, unlike the others)
        ("\u0931", "\u0930\u093c"),  # rra
        ("\u0934", "\u0933\u093c"),  # llla
        ("\u09dc", "\u09a1\u09bc"),  # Bengali rra
        ("\u09dd", "\u09a2\u09bc"),  # Bengali rha
        ("\u09df", "\u09af\u09bc"),  # Bengali yya
        ("\u0a36", "\u0a38\u0a3c"),  # Gurmukhi sha
        ("\u0a5e", "\u0a2b\u0a3c"),  # Gurmukhi fa
        ("\u0b5c", "\u0b21\u0b3c"),  # Odia rra
    ],
)
def test_nukta_forms_are_equal(precomposed: str, decomposed: str) -> None:
    word_a, word_b = f"{precomposed}\u093e", f"{decomposed}\u093e"
    assert normalize_answer(word_a, "hi") == normalize_answer(word_b, "hi")
    assert canonical_text(word_a) == canonical_text(word_b)


def test_nukta_is_kept_not_dropped() -> None:
    assert normalize_answer("\u095b\u093f\u0932\u093e", "hi") != normalize_answer(
        "\u091c\u093f\u0932\u093e", "hi"
    )


@pytest.mark.parametrize("invisible", ["\u200c", "\u200d", "\u00ad", "\ufeff", "\u2060", "\u200e"])
def test_invisible_format_characters_are_removed(invisible: str) -> None:
    assert normalize_answer(f"\u0915\u094d{invisible}\u0937", "hi") == "\u0915\u094d\u0937"


def test_zero_width_space_separates_words() -> None:
    assert normalize_answer("नई\u200bदिल्ली", "hi") == "नई दिल्ली"


def test_malayalam_chillu_forms_are_equal() -> None:
    atomic = "\u0d05\u0d35\u0d7b"  # അവൻ with atomic chillu n
    old_encoding = "\u0d05\u0d35\u0d28\u0d4d\u200d"  # NA + virama + ZWJ
    assert normalize_answer(atomic, "ml") == normalize_answer(old_encoding, "ml")


def test_every_punctuation_character_is_removed() -> None:
    punctuation = [
        chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)).startswith("P")
    ]
    assert "\u0964" in punctuation and "\u0965" in punctuation
    text = "क" + "क".join(punctuation) + "क"
    assert normalize_answer(text, "hi") == "क" * (len(punctuation) + 1)


def test_vowel_signs_and_viramas_survive() -> None:
    for word in [
        "हिन्दी",
        "তুমি",
        "ਪੰਜਾਬੀ",
        "ગુજરાતી",
        "ଓଡ଼ିଆ",
        "தமிழ்",
        "తెలుగు",
        "ಕನ್ನಡ",
        "മലയാളം",
        "اُردُو",
        "ꯃꯤꯇꯩꯂꯣꯟ",
    ]:
        assert normalize_answer(word, None) == unicodedata.normalize("NFC", word)


def test_is_english() -> None:
    assert is_english("en") and is_english("eng") and is_english("English")
    assert not is_english("hi") and not is_english(None)


def test_unknown_language_raises_with_close_matches() -> None:
    with pytest.raises(ConfigError, match="Unknown language 'englsh'"):
        normalize_answer("the answer", "englsh")
