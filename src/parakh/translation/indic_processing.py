"""Text preparation around IndicTrans2, written for Parakh (no IndicTransToolkit dependency).

IndicTrans2 was trained on text prepared in a particular way and answers in that form. Before:
punctuation normalised, native digits made ASCII, URLs / e-mails / long numbers swapped for
`<ID1>` placeholders, punctuation split off words (Moses-style for English), Brahmic scripts
rewritten in Devanagari (IndicTrans2 shares one Devanagari vocabulary across them), and
`src_tag tgt_tag ` put in front. After: placeholders restored, Devanagari rewritten in the
target script, punctuation re-attached. Script conversion maps code points between the
ISCII-aligned Unicode blocks (the same offset names the same letter in every Brahmic block); a
letter the target block lacks is left as is.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from parakh.text.languages import LanguageTag
from parakh.text.normalize import ascii_digits

# First code point of each Brahmic block (consecutive blocks of 128), by Unicode script name.
BLOCK_START: dict[str, int] = {
    script: 0x0900 + 0x80 * i
    for i, script in enumerate(
        ("Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada")
        + ("Malayalam",)
    )
}
_DANDAS = {0x0964, 0x0965}  # used by every Brahmic script from the Devanagari block

# Curly quotes, guillemets and dashes made ASCII, a no-break space a space; carriage return,
# soft hyphen and zero-width space deleted (ZWJ and ZWNJ are meaningful and kept).
_PUNCT_MAP = str.maketrans("`´‘’‚“”„«»–—\u00a0", "'''''\"\"\"\"\"-- ", "\r\u00ad\u200b")
_SPACES = re.compile(r"\s+")
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>\"]+[^\s<>\".,;:!?)\]]")
_NUMBER = re.compile(r"\d+(?:[-/.,:']\d+)+|\d{5,}")
_PLACEHOLDER = re.compile(r"[<\[]\s*(?:ID|आईडी|आई\s?\.?\s?डी\s?\.?)\s*(\d+)\s*[>\]]")
# Split off punctuation, but keep "3.5" and "10,000" whole.
_PUNCT_SPLIT = re.compile(r"(?<!\d)[.,]|[.,](?!\d)|[!?;:()\[\]{}\"\u0964\u0965\u061f\u06d4\u060c]")
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
_SPACE_BEFORE = re.compile(r" ([.,!?;:%)\]}\u0964\u0965\u061f\u06d4\u060c])")
_SPACE_AFTER = re.compile(r"([(\[{]) ")
_SPLIT_APOSTROPHE = re.compile(r"(?<=\w) '(?=\w)")


@dataclass(frozen=True)
class Prepared:
    """A sentence ready for the model, with the entities its placeholders stand for."""

    text: str
    entities: dict[str, str]  # placeholder number -> the text it stands for


def normalize_punctuation(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text.translate(_PUNCT_MAP))).strip()


def tokenize(text: str) -> str:
    """Punctuation split off words; English-style apostrophes become ` 'x` (Moses)."""
    text = _PUNCT_SPLIT.sub(lambda m: f" {m.group(0)} ", text)
    text = _APOSTROPHE.sub(" '", text)
    return _SPACES.sub(" ", text).strip()


def detokenize(text: str) -> str:
    text = _SPACE_BEFORE.sub(r"\1", text)
    text = _SPACE_AFTER.sub(r"\1", text)
    return _SPLIT_APOSTROPHE.sub("'", text)


def convert_script(text: str, source: str, target: str) -> str:
    """Rewrite Brahmic letters of block `source` in block `target` (Unicode script names)."""
    if source == target or source not in BLOCK_START or target not in BLOCK_START:
        return text
    src, tgt = BLOCK_START[source], BLOCK_START[target]
    out = []
    for ch in text:
        code = ord(ch)
        if src <= code < src + 0x80 and code not in _DANDAS:
            mapped = chr(code - src + tgt)
            out.append(mapped if unicodedata.name(mapped, None) else ch)
        else:
            out.append(ch)
    return "".join(out)


def unified_script(tag: LanguageTag) -> str:
    """The script IndicTrans2 sees for a language: Devanagari for every Brahmic script."""
    return "Devanagari" if tag.script in BLOCK_START else tag.script


def preprocess(
    sentence: str, source: LanguageTag, target: LanguageTag, tags: tuple[str, str]
) -> Prepared:
    """One sentence as IndicTrans2 expects it: `hin_Deva eng_Latn <prepared text>`, with
    e-mails, URLs and long numbers as `<ID1>`, `<ID2>`, ... (in that order)."""
    text = ascii_digits(normalize_punctuation(sentence))
    entities: dict[str, str] = {}
    for pattern in (_EMAIL, _URL, _NUMBER):

        def swap(m: re.Match[str]) -> str:
            entities[str(len(entities) + 1)] = m.group(0)
            return f"<ID{len(entities)}>"

        text = pattern.sub(swap, text)
    text = convert_script(tokenize(text), source.script, unified_script(source))
    return Prepared(text=f"{tags[0]} {tags[1]} {text}", entities=entities)


def postprocess(output: str, target: LanguageTag, entities: dict[str, str]) -> str:
    """A model output as text in the target language and script."""
    # entities back, for the placeholder spellings models produce (`<ID1>`, `[ID 1]`)
    text = _PLACEHOLDER.sub(lambda m: entities.get(m.group(1), m.group(0)), output.strip())
    text = convert_script(text, unified_script(target), target.script)
    if target.code == "or":
        text = text.replace("ଯ଼", "ୟ")  # Odia YYA is one letter, not YA + nukta
    return detokenize(text)
