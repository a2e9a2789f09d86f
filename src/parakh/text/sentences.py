"""Sentence splitting for English and Indic scripts (danda, double danda, Urdu full stop).

A full stop ends a sentence only when whitespace or the end of the text follows it and the word
before it is not a title or a Latin abbreviation, so "2.5 ml", "e.g. drops", "Dr. Rao" and
"www.example.org" stay whole. The danda (।), double danda (॥), question and exclamation marks
and their Arabic, full-width and CJK forms always end a sentence; so does a line break.

`segment` is what translation uses: sentence-level MT models (IndicTrans2, NLLB) drop or garble
content in long paragraphs, so a text is translated sentence by sentence and the translations
are rejoined with the original whitespace between them (line breaks survive the round trip).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Segmented:
    """A text as sentences plus the text around them: `gaps[i]` precedes `sentences[i]` and
    `gaps[-1]` follows the last one, so `len(gaps) == len(sentences) + 1`."""

    sentences: tuple[str, ...]
    gaps: tuple[str, ...]

    def join(self, translated: Sequence[str]) -> str:
        """The text with each sentence replaced by its translation; ValueError on a miscount."""
        parts = [self.gaps[0]]
        for sentence, gap in zip(translated, self.gaps[1:], strict=True):
            parts.extend((sentence, gap))
        return "".join(parts)


def segment(text: str, split: bool = True) -> Segmented:
    """Sentences of `text` (the whole stripped text when `split` is off or it has none)."""
    spans = split_sentences_with_offsets(text) if split else []
    if not spans:
        stripped = text.strip()
        if not stripped:
            return Segmented(sentences=(), gaps=(text,))
        start = text.index(stripped)
        spans = [(start, start + len(stripped))]
    ends = [0, *(e for _, e in spans)]
    starts = [s for s, _ in spans] + [len(text)]
    gaps = tuple(text[a:b] for a, b in zip(ends, starts, strict=True))
    return Segmented(sentences=tuple(text[s:e] for s, e in spans), gaps=gaps)


def split_sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in split_sentences_with_offsets(text)]
