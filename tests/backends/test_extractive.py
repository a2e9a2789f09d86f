"""The extractive baseline: an answer from the passages it is given, and an error row that says
so when it is given none (closed-book), never an empty answer passed off as one."""

from __future__ import annotations

import pytest

from parakh.backends.base import ChatRequest
from parakh.backends.extractive import CLOSED_BOOK, ExtractiveBackend
from parakh.config.model import ExtractiveModel
from parakh.config.schema import EmbedderConfig, Sampling
from parakh.retrieval.embedders import HashingEmbedder

PASSAGE = (
    "Do not wash your head for ten days after the surgery. "
    "Put the eye drops in four times a day for two weeks."
)


class CountingEmbedder(HashingEmbedder):
    """Trigram vectors (no model), counting the calls made."""

    def __init__(self) -> None:
        super().__init__(EmbedderConfig(name="hashing", kind="hashing"))
        self.calls = 0

    def embed_queries(self, texts):  # type: ignore[no-untyped-def]
        self.calls += 1
        return super().embed_queries(texts)


def _backend(embedder: CountingEmbedder, max_sentences: int = 1) -> ExtractiveBackend:
    cfg = ExtractiveModel(name="extractive", backend="extractive", max_sentences=max_sentences)
    return ExtractiveBackend(cfg, embedder=embedder)


def _request(*passages: str, question: str = "When can I wash my head?") -> ChatRequest:
    return ChatRequest(
        key="q1",
        messages=(("user", question),),
        sampling=Sampling(),
        question=question,
        passages=passages,
    )


@pytest.mark.parametrize("passages", [(), ("",), ("  \n", "\t")])
def test_closed_book_is_an_error_that_says_why(passages: tuple[str, ...]) -> None:
    embedder = CountingEmbedder()
    completion = _backend(embedder).complete(_request(*passages))
    assert not completion.ok and completion.text is None
    assert completion.error == CLOSED_BOOK
    assert completion.error.startswith("closed-book:")
    assert embedder.calls == 0  # nothing to rank, so nothing embedded


def test_with_passages_it_answers_with_the_closest_sentence_and_stops() -> None:
    completion = _backend(CountingEmbedder()).complete(_request(PASSAGE))
    assert completion.ok and completion.finish_reason == "stop"
    assert completion.text == "Do not wash your head for ten days after the surgery."


def test_passages_too_short_for_a_sentence_give_a_real_empty_answer() -> None:
    """Passages were given, and none holds a sentence of three words or more: the baseline's
    answer is empty, an `ok` answer (reference metrics score it; no LLM judge reads it)."""
    completion = _backend(CountingEmbedder()).complete(_request("Yes.", "No way"))
    assert completion.ok and completion.text == "" and completion.finish_reason == "stop"
