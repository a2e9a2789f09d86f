"""The KB-version rule for every retriever: an update dated after the question is never
retrieved, newer updates come before older ones, and re-runs give the same bytes."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from parakh.config.retrieval import EmbedderConfig, RetrieverConfig
from parakh.io import write_jsonl
from parakh.retrieval.chunking import chunk_documents
from parakh.retrieval.embedders import Embedder, HashingEmbedder
from parakh.retrieval.kb_versions import VersionedKB
from parakh.retrieval.retrievers import QueryBatch
from parakh.schema import Chunk, KBDocument, Question, Retrieval

KINDS = ["faiss_flat", "faiss_hnsw", "faiss_ivf", "bm25", "hybrid"]
START = date(2024, 1, 1)
TOPICS = ["head bath", "eye drops", "driving", "diet", "glasses", "swimming"]


def _embedder() -> HashingEmbedder:
    return HashingEmbedder(EmbedderConfig(name="hash", kind="hashing"))


def _kb() -> list[KBDocument]:
    """Raw documents plus, per topic, updates every 30 days: the later the update, the more
    it repeats the topic, so a date-blind retriever would rank the newest (future) ones first."""
    docs = [
        KBDocument(id=f"raw:{t}", kind="raw", source="r.md", text=f"About {t}. General advice.")
        for t in TOPICS
    ]
    for ti, topic in enumerate(TOPICS):
        for n in range(6):
            added = START + timedelta(days=30 * n + ti)
            docs.append(
                KBDocument(
                    id=f"update:{topic}:{n}",
                    kind="update",
                    source="u.md",
                    added_at=added,
                    text=f"Question about {topic}?\n" + f"Answer on {topic}. " * (n + 1),
                )
            )
    return docs


def _questions() -> list[Question]:
    return [
        Question(
            id=f"q{i}",
            text=f"What about {TOPICS[i % len(TOPICS)]}?",
            language="en",
            asked_at=START + timedelta(days=17 * i),
        )
        for i in range(12)
    ] + [Question(id="undated", text="What about diet?", language="en")]


def retrieve_versioned(
    questions: list[Question], chunks: list[Chunk], cfg: RetrieverConfig, embedder: Embedder
) -> list[Retrieval]:
    """Top-k raw and KB-update chunks per question, as the index stage retrieves them."""
    kb = VersionedKB.build(chunks, cfg, embedder)
    queries = QueryBatch([q.text for q in questions], embedder)
    return kb.retrieve(questions, queries, cfg.top_k, cfg.top_k_updates)


def _cfg(kind: str, top_k_updates: int = 3) -> RetrieverConfig:
    return RetrieverConfig(
        name=kind, kind=kind, top_k=2, top_k_updates=top_k_updates, chunk_tokens=32
    )


@pytest.mark.parametrize("kind", KINDS)
def test_no_update_from_the_future_and_newest_first(kind: str) -> None:
    docs, questions = _kb(), _questions()
    chunks = chunk_documents(docs, 32)
    retrievals = retrieve_versioned(questions, chunks, _cfg(kind), _embedder())
    asked = {q.id: q.asked_at for q in questions}
    seen_any = 0
    for r in retrievals:
        dates = [c.added_at for c in r.kb_update_chunks]
        assert all(d is not None for d in dates)
        if asked[r.question_id] is not None:
            assert all(d <= asked[r.question_id] for d in dates), r.question_id
        assert dates == sorted(dates, reverse=True), r.question_id  # newest first
        assert len(r.raw_chunks) == 2 and all(c.kind == "raw" for c in r.raw_chunks)
        seen_any += bool(dates)
    assert seen_any >= 10  # the rule filters; it does not just return nothing


@pytest.mark.parametrize("kind", KINDS)
def test_the_newest_visible_update_on_the_topic_is_retrieved(kind: str) -> None:
    docs = _kb()
    q = Question(id="q", text="Question about driving?", language="en", asked_at=date(2024, 3, 5))
    (r,) = retrieve_versioned([q], chunk_documents(docs, 32), _cfg(kind, 10), _embedder())
    driving = [c.document_id for c in r.kb_update_chunks if "driving" in c.document_id]
    # Updates on driving were added 2024-01-03, 02-02, 03-03, 04-02, ...: three are visible.
    assert driving == ["update:driving:2", "update:driving:1", "update:driving:0"]


def test_an_undated_question_sees_every_update() -> None:
    docs = _kb()
    q = Question(id="q", text="Answer on swimming.", language="en")
    (r,) = retrieve_versioned([q], chunk_documents(docs, 32), _cfg("faiss_flat", 1), _embedder())
    assert [c.document_id for c in r.kb_update_chunks] == ["update:swimming:5"]


@pytest.mark.parametrize("kind", KINDS)
def test_retrieval_output_is_byte_identical_on_rerun(kind: str, tmp_path: Path) -> None:
    paths = []
    for run in range(2):
        retrievals = retrieve_versioned(
            _questions(), chunk_documents(_kb(), 32), _cfg(kind), _embedder()
        )
        paths.append(tmp_path / f"run{run}.jsonl")
        write_jsonl(paths[-1], retrievals)
    assert paths[0].read_bytes() == paths[1].read_bytes()


def test_rank_documents_orders_by_score_and_respects_dates() -> None:
    chunks = chunk_documents(_kb(), 32)
    kb = VersionedKB.build(chunks, _cfg("faiss_flat"), _embedder())
    q = Question(id="q", text="Answer on diet.", language="en", asked_at=date(2024, 2, 10))
    raw, updates = kb.rank_documents([q], QueryBatch([q.text], _embedder()), depth=3)
    assert raw[0][0] == "raw:diet"
    assert set(updates[0]) <= {f"update:{t}:{n}" for t in TOPICS for n in range(2)}
    assert updates[0][0].startswith("update:diet:")


@pytest.mark.parametrize("kind", ["faiss_flat", "faiss_hnsw", "faiss_ivf"])
def test_total_chunks_keeps_the_best_scoring_across_raw_and_updates(kind: str) -> None:
    """Three chunks in all (HEALTH-PARIKSHA §3, lines 69 and 91), KB updates included, by score."""
    chunks = chunk_documents(_kb(), 32)
    both = retrieve_versioned(_questions(), chunks, _cfg(kind), _embedder())
    cfg = _cfg(kind).model_copy(update={"total_chunks": 3})
    capped = retrieve_versioned(_questions(), chunks, cfg, _embedder())
    for full, three in zip(both, capped, strict=True):
        pooled = sorted((c.score for c in [*full.raw_chunks, *full.kb_update_chunks]), reverse=True)
        kept = [*three.raw_chunks, *three.kb_update_chunks]
        assert len(kept) == min(3, len(pooled))
        assert sorted((c.score for c in kept), reverse=True) == pooled[:3]
        dates = [c.added_at for c in three.kb_update_chunks]
        assert dates == sorted(dates, reverse=True)  # still newest first
    assert any(r.kb_update_chunks for r in capped)  # updates do compete for the places


def test_total_chunks_config_errors_name_the_fix() -> None:
    with pytest.raises(ValueError, match="total_chunks needs raw and KB-update scores"):
        RetrieverConfig(name="b", kind="bm25", total_chunks=3)
    with pytest.raises(ValueError, match="exceeds the candidates"):
        RetrieverConfig(name="f", kind="faiss_flat", top_k=1, top_k_updates=1, total_chunks=3)
