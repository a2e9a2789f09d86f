"""Sentence splitting for English and Indic scripts (danda, double danda, Urdu full stop)."""

from __future__ import annotations

import re

# ., ?, ! and their Indic/Arabic/CJK forms: । ॥ ۔ ؟ and the full-width ones.
_TERMINATORS = ".?!\u0964\u0965\u06d4\u061f\uff01\uff1f\u3002"
_SENTENCE = re.compile(rf"[^{_TERMINATORS}\n]*(?:[{_TERMINATORS}]+|\n+|$)")


def split_sentences_with_offsets(text: str) -> list[tuple[int, int]]:
    """(start, end) character spans of the sentences of `text`, whitespace trimmed."""
    spans = []
    for m in _SENTENCE.finditer(text):
        start, end = m.start(), m.end()
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            spans.append((start, end))
    return spans


def split_sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in split_sentences_with_offsets(text)]
