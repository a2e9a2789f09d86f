"""Token-bounded, sentence-aware chunks that remember their document, offsets and kind.

Sentences are packed whole into chunks of at most `max_tokens` tokens, counted with the
embedder's own tokenizer where it has one. A sentence longer than the bound is cut into pieces
of about equal size at clause or word ends (at characters only for a single word longer than
the bound). Consecutive chunks may
share whole sentences, up to `overlap_tokens` tokens. A KB-update entry is never cut: it is one
question with its answer (Parakh's choice; HEALTH-PARIKSHA says only that every KB document was
chunked to at most 1000 tokens).

The size of a chunk is the sum of the counts of its sentences: with a tokenizer that adds
special tokens per call (e5 adds two) that over-counts a little, so the bound always holds.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from typing import NamedTuple

from parakh.schema import Chunk, KBDocument
from parakh.text.sentences import split_sentences_with_offsets

TokenCounter = Callable[[str], int]
_WORD_END = re.compile(r"\S+")


def whitespace_tokens(text: str) -> int:
    return len(text.split())


class Unit(NamedTuple):
    """A sentence (or a piece of an over-long one): character span and token count."""

    start: int
    end: int
    tokens: int


def _last_fitting(text: str, start: int, cuts: list[int], budget: int, count: TokenCounter) -> int:
    """Index of the last cut c with count(text[start:c]) <= budget (binary search; counts grow
    with c), or 0 if none fits."""
    fitting = bisect_right(cuts, budget, key=lambda cut: count(text[start:cut]))
    return max(0, fitting - 1)


def _clause_cut(text: str, cuts: list[int], target: int, last: int) -> int:
    """The cut after a comma, semicolon or colon nearest to `target` (within a third of the
    piece, never past `last`), else `target`."""
    slack = max(1, (target + 1) // 3)
    clause = [j for j in range(max(0, target - slack), last + 1) if text[cuts[j] - 1] in ",;:"]
    return min(clause, key=lambda j: (abs(j - target), j)) if clause else target


def _split_long(
    text: str, start: int, end: int, max_tokens: int, count: TokenCounter
) -> list[Unit]:
    """Cut text[start:end] into pieces of at most `max_tokens` and of about equal size (no
    stub of two words), at a clause or word end where possible."""
    units = []
    while start < end:
        n = count(text[start:end])
        if n <= max_tokens:
            units.append(Unit(start, end, n))
            break
        cuts = [m.end() for m in _WORD_END.finditer(text, start, end)]
        if not cuts or count(text[start : cuts[0]]) > max_tokens:
            cuts = list(range(start + 1, end + 1))  # one word longer than the bound
        pieces = -(-n // max_tokens)
        last = _last_fitting(text, start, cuts, max_tokens, count)
        target = min(_last_fitting(text, start, cuts, -(-n // pieces), count), last)
        cut = cuts[_clause_cut(text, cuts, target, last)]
        units.append(Unit(start, cut, count(text[start:cut])))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    return units


def sentence_units(text: str, max_tokens: int, count: TokenCounter) -> list[Unit]:
    units = []
    for s, e in split_sentences_with_offsets(text) or [(0, len(text))]:
        n = count(text[s:e])
        units.extend(
            [Unit(s, e, n)] if n <= max_tokens else _split_long(text, s, e, max_tokens, count)
        )
    return units


def pack(units: list[Unit], max_tokens: int, overlap_tokens: int = 0) -> list[list[Unit]]:
    """Greedy packing; each new chunk starts with the previous chunk's last sentences that
    fit in `overlap_tokens` (and leave room for the next sentence)."""
    groups: list[list[Unit]] = []
    current: list[Unit] = []
    used = 0
    for unit in units:
        if current and used + unit.tokens > max_tokens:
            groups.append(current)
            carry: list[Unit] = []
            carried = 0
            for prev in reversed(current):
                if carried + prev.tokens > overlap_tokens:
                    break
                carry.insert(0, prev)
                carried += prev.tokens
            while carry and carried + unit.tokens > max_tokens:
                carried -= carry.pop(0).tokens
            current, used = carry, carried
        current.append(unit)
        used += unit.tokens
    if current:
        groups.append(current)
    return groups


def chunk_document(
    doc: KBDocument,
    max_tokens: int,
    overlap_tokens: int = 0,
    count_tokens: TokenCounter = whitespace_tokens,
) -> list[Chunk]:
    """The chunks of one document, numbered `<document id>#<i>` in reading order."""
    text = doc.text
    if doc.kind == "update":
        groups = [[Unit(0, len(text), 0)]]
    else:
        groups = pack(sentence_units(text, max_tokens, count_tokens), max_tokens, overlap_tokens)
    return [
        Chunk(
            id=f"{doc.id}#{i}",
            document_id=doc.id,
            kind=doc.kind,
            text=text[g[0].start : g[-1].end],
            start=g[0].start,
            end=g[-1].end,
            added_at=doc.added_at,
            title=doc.title,
        )
        for i, g in enumerate(groups)
    ]


def chunk_documents(
    docs: list[KBDocument],
    max_tokens: int,
    overlap_tokens: int = 0,
    count_tokens: TokenCounter = whitespace_tokens,
) -> list[Chunk]:
    return [c for d in docs for c in chunk_document(d, max_tokens, overlap_tokens, count_tokens)]
