"""Token-bounded, sentence-aware chunks that remember their document, offsets and kind."""

from __future__ import annotations

from collections.abc import Callable

from parakh.retrieval.sentences import split_sentences_with_offsets
from parakh.schema import Chunk, KBDocument

TokenCounter = Callable[[str], int]


def whitespace_tokens(text: str) -> int:
    return len(text.split())


def chunk_document(
    doc: KBDocument,
    max_tokens: int,
    overlap_sentences: int = 0,
    count_tokens: TokenCounter = whitespace_tokens,
) -> list[Chunk]:
    """Pack whole sentences into chunks of at most `max_tokens` tokens.

    A KB-update entry is never split: it is one question with its answer. A single sentence
    longer than the bound becomes a chunk of its own (it is kept whole, not cut mid-word).
    """
    text = doc.text
    if doc.kind == "update":
        spans = [(0, len(text))]
    else:
        spans = split_sentences_with_offsets(text) or [(0, len(text))]
    groups: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    used = 0
    for span in spans:
        n = count_tokens(text[span[0] : span[1]])
        if current and used + n > max_tokens:
            groups.append(current)
            current = current[-overlap_sentences:] if overlap_sentences else []
            used = sum(count_tokens(text[s:e]) for s, e in current)
        current.append(span)
        used += n
    if current:
        groups.append(current)
    return [
        Chunk(
            id=f"{doc.id}#{i}",
            document_id=doc.id,
            kind=doc.kind,
            text=text[g[0][0] : g[-1][1]],
            start=g[0][0],
            end=g[-1][1],
            added_at=doc.added_at,
            title=doc.title,
        )
        for i, g in enumerate(groups)
    ]


def chunk_documents(
    docs: list[KBDocument],
    max_tokens: int,
    overlap_sentences: int = 0,
    count_tokens: TokenCounter = whitespace_tokens,
) -> list[Chunk]:
    return [c for d in docs for c in chunk_document(d, max_tokens, overlap_sentences, count_tokens)]
