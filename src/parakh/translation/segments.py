"""Split a text into sentences before translation and put the translations back in place.

Sentence-level MT models (IndicTrans2, NLLB) were trained on single sentences and drop or
garble content in long paragraphs, so texts are split at sentence ends (including the danda
and double danda of Indic scripts) and the translated sentences are rejoined with the original
whitespace between them: line breaks and blank lines survive the round trip.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from parakh.text.sentences import split_sentences_with_offsets


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
    sentences = tuple(text[s:e] for s, e in spans)
    ends = [0, *(e for _, e in spans)]
    starts = [s for s, _ in spans] + [len(text)]
    gaps = tuple(text[a:b] for a, b in zip(ends, starts, strict=True))
    return Segmented(sentences=sentences, gaps=gaps)
