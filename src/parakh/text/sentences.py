"""Sentence splitting for English and Indic scripts (danda, double danda, Urdu full stop).

A full stop ends a sentence only when whitespace or the end of the text follows it and the word
before it is not a title or a Latin abbreviation, so "2.5 ml", "e.g. drops", "Dr. Rao" and
"www.example.org" stay whole. The danda (।), double danda (॥), question and exclamation marks
and their Arabic, full-width and CJK forms always end a sentence; so does a line break.
"""

from __future__ import annotations

import re

_ALWAYS = "?!\u0964\u0965\u06d4\u061f\uff01\uff1f\u3002"
_BOUNDARY = re.compile(rf"[.{_ALWAYS}]+[\"'\u201d\u2019)\]]*|\n+")
_WORD_BEFORE = re.compile(r"([\w.]+)$")
# Lower-cased words that a full stop follows without ending the sentence.
ABBREVIATIONS = frozenset(
    {"dr", "mr", "mrs", "ms", "prof", "sr", "jr", "st", "vs", "approx", "fig", "e.g", "i.e"}
    | {"al", "viz", "hon", "smt", "shri", "kum"}
)


def _ends_sentence(text: str, start: int, end: int) -> bool:
    mark = text[start:end]
    if mark.startswith("\n") or any(c in _ALWAYS for c in mark):
        return True
    if end < len(text) and not text[end].isspace():
        return False  # 2.5, e.g.x, example.org
    word = _WORD_BEFORE.search(text, 0, start)
    return not (word and word.group(1).lower().rstrip(".") in ABBREVIATIONS)


def split_sentences_with_offsets(text: str) -> list[tuple[int, int]]:
    """(start, end) character spans of the sentences of `text`, whitespace trimmed."""
    spans: list[tuple[int, int]] = []
    begin = 0
    for m in _BOUNDARY.finditer(text):
        if _ends_sentence(text, m.start(), m.end()):
            spans.append((begin, m.end()))
            begin = m.end()
    spans.append((begin, len(text)))
    trimmed = []
    for start, end in spans:
        sentence = text[start:end]
        if sentence.strip():
            lead = len(sentence) - len(sentence.lstrip())
            trimmed.append((start + lead, start + len(sentence.rstrip())))
    return trimmed


def split_sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in split_sentences_with_offsets(text)]
