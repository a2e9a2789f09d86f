"""Language-ID accuracy and speed of `parakh.text.langid` on L3Cube-IndicQuest questions.

Every `Question` (leading spaces stripped) of the 20 parallel language files is labelled with
no hint; accuracy is the share labelled with the file's language. Writes per-language
accuracy, n and the most frequent wrong labels to `bench/results/langid_indicquest.json` and
prints a markdown table.

    python bench/langid_indicquest.py [--data ../shared/data/indicquest] [--out PATH]
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import time
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

from parakh.io import atomic_open
from parakh.text.langid import label_language
from parakh.text.languages import check_language, language_name

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_DATA = BENCH_DIR.parent.parent / "shared" / "data" / "indicquest"
DEFAULT_OUT = BENCH_DIR / "results" / "langid_indicquest.json"
TARGET_ACCURACY = 0.97
TARGET_LANGUAGES = ("en", "hi", "bn", "gu", "kn", "ml", "mr", "or", "pa", "ta", "te", "ur")


def load_questions(data_dir: Path) -> dict[str, list[str]]:
    """Language code -> stripped questions, one list per `<Language>.csv` file."""
    files = sorted(data_dir.glob("*.csv"))
    if not files:
        raise FileNotFoundError(f"no IndicQuest CSV files in {data_dir}")
    questions: dict[str, list[str]] = {}
    for path in files:
        with path.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        questions[check_language(path.stem)] = [row["Question"].strip() for row in rows]
    return questions


def run_bench(questions: dict[str, list[str]]) -> dict[str, Any]:
    """Label every question; per-language accuracy, confusion and throughput."""
    started = time.perf_counter()
    label_language("पहचानकर्ता लोड करें: load the identifiers")
    load_seconds = time.perf_counter() - started

    per_language: dict[str, dict[str, Any]] = {}
    n_total = 0
    elapsed = 0.0
    for code, texts in questions.items():
        started = time.perf_counter()
        labels = [label_language(text) for text in texts]
        elapsed += time.perf_counter() - started
        n_total += len(texts)
        wrong = Counter(label.language for label in labels if label.language != code)
        correct = len(labels) - sum(wrong.values())
        per_language[code] = {
            "name": language_name(code),
            "n": len(labels),
            "correct": correct,
            "accuracy": round(correct / len(labels), 4),
            "confusion": dict(wrong.most_common(5)),
            "romanized": sum(label.romanized for label in labels),
            "code_mixed": sum(label.code_mixed for label in labels),
            "meets_target": (correct / len(labels) >= TARGET_ACCURACY)
            if code in TARGET_LANGUAGES
            else None,
        }
    return {
        "dataset": "L3Cube-IndicQuest (shared split), Question column, stripped",
        "n": n_total,
        "target": {"accuracy": TARGET_ACCURACY, "languages": list(TARGET_LANGUAGES)},
        "all_targets_met": all(per_language[c]["meets_target"] for c in TARGET_LANGUAGES),
        "languages": per_language,
        "timing": {
            "load_seconds": round(load_seconds, 3),
            "label_seconds": round(elapsed, 3),
            "rows_per_second": round(n_total / elapsed, 1) if elapsed else None,
        },
        "environment": {
            "python": platform.python_version(),
            **{pkg: _version(pkg) for pkg in ("cld3-py", "py3langid")},
        },
    }


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def markdown_table(result: dict[str, Any]) -> str:
    lines = [
        "| code | language | n | accuracy | top wrong labels |",
        "|---|---|---|---|---|",
    ]
    for code, row in result["languages"].items():
        confusion = ", ".join(f"{lang} {n}" for lang, n in row["confusion"].items()) or "-"
        mark = " *" if code in TARGET_LANGUAGES and not row["meets_target"] else ""
        lines.append(
            f"| {code} | {row['name']} | {row['n']} | {row['accuracy']:.1%}{mark} | {confusion} |"
        )
    timing = result["timing"]
    lines.append("")
    lines.append(
        f"{result['n']} rows, {timing['rows_per_second']} rows/s after a "
        f"{timing['load_seconds']} s load; * = below the {TARGET_ACCURACY:.0%} target"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    result = run_bench(load_questions(args.data))
    with atomic_open(args.out) as f:
        json.dump(result, f, ensure_ascii=False, indent=2)
        f.write("\n")
    print(markdown_table(result))


if __name__ == "__main__":
    main()
