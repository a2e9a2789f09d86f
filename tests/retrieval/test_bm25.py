"""BM25: Indic words match whole (matras, viramas, nuktas), no-match chunks are not returned."""

from __future__ import annotations

from parakh.config.retrieval import BM25Params
from parakh.retrieval.retrievers import BM25Retriever, QueryBatch, whitespace_tokenize

CHUNKS = [
    "ऑपरेशन के बाद आँखों में दवा दिन में चार बार डालें।",
    "सर्जरी के बाद दस दिन तक सिर न धोएं।",
    "Wear protective glasses outdoors.",
    "Do not wash your head for 10 days.",
]


def test_hindi_query_finds_the_chunk_sharing_its_words() -> None:
    index = BM25Retriever(CHUNKS)
    (best, score), *_ = index.search(QueryBatch(["सिर कब धो सकते हैं?"]), 4)[0]
    assert best == 1 and score > 0
    assert index.search(QueryBatch(["आँखों में दवा कितनी बार?"]), 1)[0][0][0] == 0


def test_punctuation_does_not_glue_to_words_unlike_whitespace_tokens() -> None:
    # "डालें।" with the danda attached is a different token to a whitespace tokenizer.
    assert whitespace_tokenize("दवा डालें।") == ["दवा", "डालें।"]
    script_aware = BM25Retriever(CHUNKS)
    whitespace = BM25Retriever(CHUNKS, BM25Params(tokenizer="whitespace"))
    assert script_aware.search(QueryBatch(["डालें"]), 4)[0][0][0] == 0
    assert whitespace.search(QueryBatch(["डालें"]), 4)[0] == []


def test_chunks_sharing_no_word_are_not_returned() -> None:
    index = BM25Retriever(CHUNKS)
    hits = index.search(QueryBatch(["glasses"]), 4)[0]
    assert [i for i, _ in hits] == [2]
    assert index.search(QueryBatch(["zebra"]), 4)[0] == []
    assert index.search(QueryBatch(["?!"]), 4)[0] == []  # no words at all


def test_ties_go_to_the_earlier_chunk_and_empty_corpus_is_fine() -> None:
    index = BM25Retriever(["eye drops", "eye drops", "drops"])
    assert [i for i, _ in index.search(QueryBatch(["eye"]), 2)[0]] == [0, 1]
    assert BM25Retriever([]).search(QueryBatch(["eye"]), 3) == [[]]
