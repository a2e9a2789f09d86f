"""Retrieval metrics of a KB: gold from relevant contexts, raw and update sides apart."""

from __future__ import annotations

from datetime import date

from parakh.config.retrieval import EmbedderConfig, RetrieverConfig
from parakh.retrieval.chunking import chunk_documents
from parakh.retrieval.embedders import HashingEmbedder
from parakh.retrieval.kb_versions import VersionedKB, evaluate_kb, gold_documents
from parakh.retrieval.retrievers import QueryBatch
from parakh.schema import KBDocument, Passage, Question


def _kb() -> list[KBDocument]:
    return [
        KBDocument(id="eye", kind="raw", source="a", text="Put the eye drops four times a day."),
        KBDocument(id="head", kind="raw", source="a", text="Do not wash your head for ten days."),
        KBDocument(id="food", kind="raw", source="a", text="Eat anything you like after surgery."),
        KBDocument(
            id="u-old",
            kind="update",
            source="u",
            added_at=date(2024, 1, 1),
            text="Can I drive?\nNot for a week.",
        ),
        KBDocument(
            id="u-new",
            kind="update",
            source="u",
            added_at=date(2024, 6, 1),
            text="Can I drive?\nAfter three days.",
        ),
    ]


def _q(qid: str, text: str, gold: list[str], lang: str = "en", asked: date | None = None):
    ctx = [Passage(id=g, text="", relevant=True) for g in gold]
    ctx.append(Passage(id="food", text="", relevant=False))  # not gold: relevant is False
    return Question(id=qid, text=text, language=lang, contexts=ctx, asked_at=asked)


def _evaluate(questions: list[Question]):
    embedder = HashingEmbedder(EmbedderConfig(name="h", kind="hashing"))
    cfg = RetrieverConfig(name="flat", kind="faiss_flat", chunk_tokens=64)
    kb = VersionedKB.build(chunk_documents(_kb(), 64), cfg, embedder)
    return evaluate_kb(questions, kb, QueryBatch([q.text for q in questions], embedder), 10)


def test_gold_is_the_relevant_contexts_that_are_kb_documents() -> None:
    q = _q("q", "x", ["eye", "not-in-kb"])
    assert gold_documents(q, {"eye", "head", "food"}) == frozenset({"eye"})


def test_raw_and_update_sides_are_scored_apart_per_language() -> None:
    m = _evaluate(
        [
            _q("q1", "How often do I put the eye drops?", ["eye"]),
            _q("q2", "सिर कब धोना है? wash your head", ["head"], lang="hi"),
            _q("q3", "Can I drive?", ["u-new"], asked=date(2024, 7, 1)),
        ]
    )
    assert m is not None
    assert m["raw"]["n"] == {"all": 2.0, "en": 1.0, "hi": 1.0}
    assert m["raw"]["recall@1"]["all"] == 1.0
    assert m["update"]["n"] == {"all": 1.0, "en": 1.0}
    assert m["update"]["recall@3"]["all"] == 1.0
    assert m["excluded_future_gold"] == 0


def test_gold_update_from_the_future_is_left_out_and_counted() -> None:
    m = _evaluate([_q("q", "Can I drive?", ["u-new"], asked=date(2024, 2, 1))])
    assert m is not None and "update" not in m and m["excluded_future_gold"] == 1


def test_no_gold_means_no_metrics() -> None:
    assert _evaluate([Question(id="q", text="Can I drive?", language="en")]) is None
