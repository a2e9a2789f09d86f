"""Script-aware tokenizer: words keep their vowel signs and viramas in every script."""

from __future__ import annotations

import json
import random
import string
import unicodedata
from pathlib import Path

import pytest
from rouge_score import tokenize as rouge_tokenize

from parakh.text.normalize import canonical_text
from parakh.text.tokenize import is_word_char, tokenize

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("हिन्दी भाषा", ["हिन्दी", "भाषा"]),
        ("यह ठीक है। वह भी॥", ["यह", "ठीक", "है", "वह", "भी"]),
        ("আমি বাংলায় গান গাই।", ["আমি", "বাংলায়", "গান", "গাই"]),
        ("ਪੰਜਾਬੀ ਭਾਸ਼ਾ", ["ਪੰਜਾਬੀ", unicodedata.normalize("NFC", "ਭਾਸ਼ਾ")]),
        ("ગુજરાતી ભાષા", ["ગુજરાતી", "ભાષા"]),
        ("ଓଡ଼ିଆ ଭାଷା", [unicodedata.normalize("NFC", "ଓଡ଼ିଆ"), "ଭାଷା"]),
        ("தமிழ் மொழி.", ["தமிழ்", "மொழி"]),
        ("తెలుగు భాష", ["తెలుగు", "భాష"]),
        ("ಕನ್ನಡ ಭಾಷೆ", ["ಕನ್ನಡ", "ಭಾಷೆ"]),
        ("മലയാളം ഭാഷ", ["മലയാളം", "ഭാഷ"]),
        ("اردو زبان، پاکستان۔", ["اردو", "زبان", "پاکستان"]),
        ("ꯃꯤꯇꯩꯂꯣꯟ ꯂꯣꯟ꯫", ["ꯃꯤꯇꯩꯂꯣꯟ", "ꯂꯣꯟ"]),
        ("१९४७ में", ["१९४७", "में"]),
        ("Hello, World! 42", ["hello", "world", "42"]),
        ("snake_case-word", ["snake", "case", "word"]),
        ("", []),
        ("  ।, ", []),
    ],
)
def test_tokenize(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_lowercase_off_keeps_case() -> None:
    assert tokenize("Hello World", lowercase=False) == ["Hello", "World"]


def test_joiners_do_not_split_a_word() -> None:
    assert tokenize("क्\u200dष नई\u200cदिल्ली") == ["क्ष", "नईदिल्ली"]
    assert tokenize("نئی\u200bدہلی") == ["نئی", "دہلی"]


def test_nukta_spellings_give_the_same_token() -> None:
    assert tokenize("\u095b\u093f\u0932\u093e") == tokenize("\u091c\u093c\u093f\u0932\u093e")


def test_python_word_regex_would_split_devanagari() -> None:
    """Why the tokenizer does not use `\\w`: it drops vowel signs and viramas."""
    import re

    assert re.findall(r"\w+", "हिन्दी") != ["हिन्दी"]
    assert tokenize("हिन्दी") == ["हिन्दी"]


def test_word_characters() -> None:
    assert is_word_char("क") and is_word_char("\u093f") and is_word_char("\u094d")
    assert is_word_char("५") and is_word_char("7")
    assert not is_word_char("\u0964") and not is_word_char("_") and not is_word_char(" ")


def test_no_word_character_is_lost_on_indicquest() -> None:
    folder = SHARED_DATA / "indicquest"
    if not folder.is_dir():
        pytest.skip(f"shared data not available: {folder}")
    for path in sorted(folder.glob("*.csv")):
        text = canonical_text(path.read_text(encoding="utf-8")).lower()
        kept = "".join(ch for ch in text if is_word_char(ch))
        assert "".join(tokenize(text)) == kept, path.name


def test_equals_rouge_score_tokenizer_on_random_ascii() -> None:
    rng = random.Random(1)
    alphabet = string.printable
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert tokenize(text) == rouge_tokenize.tokenize(text, None), repr(text)


def test_equals_rouge_score_tokenizer_on_xquad_english() -> None:
    path = SHARED_DATA / "xquad" / "xquad.en.json"
    if not path.is_file():
        pytest.skip(f"shared data not available: {path}")
    data = json.loads(path.read_text(encoding="utf-8"))
    contexts = [p["context"] for a in data["data"] for p in a["paragraphs"]]
    ascii_contexts = [c for c in contexts if c.isascii()]
    assert len(ascii_contexts) > 100
    for context in ascii_contexts:
        assert tokenize(context) == rouge_tokenize.tokenize(context, None)
