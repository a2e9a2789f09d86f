"""NoMIRACL hallucination and error rates of the 11 baseline models, per model and language.

Reads the NoMIRACL queries with the authors' model outputs (shared/data/nomiracl/queries.jsonl),
classifies every output with both parsers (Parakh's `lenient` one and the authors' `released`
substring rules, `parakh.metrics.nomiracl`), and writes bench/results/nomiracl_rates.json:

- `rates`: the lenient parser's verdicts, FP / (FP + TN) and FN / (FN + TP), invalid excluded;
- `released_parser_rates`: the same definition on the released parser's verdicts;
- `released_code_rates`: what the released code reports: the released parser's verdicts, all
  outputs in the denominator, 0.0 where a model never gives the subset's correct label;
- `disagreements`: outputs on which the two parsers differ, per model and language, and by
  (lenient -> released) verdict pair; `missing_outputs`: null outputs, counted not dropped.

Prints a short table.

    python bench/nomiracl_rates.py [--queries PATH] [--output PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from parakh.io import iter_json_objects, validate_row, write_json
from parakh.metrics.nomiracl import (
    INVALID,
    LABELS,
    PARSERS,
    NomiraclOutcome,
    NomiraclRates,
    NomiraclSubset,
    Rate,
    ReleasedCodeRates,
    both_labels,
    nomiracl_rates,
    released_code_rates,
)

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_QUERIES = REPO_ROOT.parent / "shared" / "data" / "nomiracl" / "queries.jsonl"
DEFAULT_OUTPUT = REPO_ROOT / "bench" / "results" / "nomiracl_rates.json"

CLASSIFIERS = {
    "lenient": "parakh.metrics.nomiracl.classify_nomiracl_output (Parakh's parser)",
    "released": "parakh.metrics.nomiracl.classify_released (the rules of "
    "VanillaTemplate.postprocess, nomiracl/prompts/template.py, project-miracl/nomiracl@9c787da)",
}
DEFINITIONS = {
    "hallucination": "FP / (FP + TN) on the non_relevant subset: FP = 'answer present', "
    "TN = 'I don't know'; invalid outputs excluded",
    "error": "FN / (FN + TP) on the relevant subset: FN = 'I don't know', "
    "TP = 'answer present'; invalid outputs excluded",
    "invalid_relevant / invalid_non_relevant": "invalid outputs / all outputs of the subset",
    "rates": "the lenient parser's verdicts",
    "released_parser_rates": "the released parser's verdicts",
    "released_code_rates": "as the released ConfusionMetric and hallucination_evaluation.py "
    "report them: released parser, every output (invalid and missing included) in the "
    "denominator; value 0.0 (zeroed) when the model never gave the subset's correct label",
    "disagreements": "outputs whose lenient and released verdicts differ",
}


class NomiraclQuery(BaseModel):
    """One line of queries.jsonl (see shared/data/nomiracl/README.md)."""

    model_config = ConfigDict(extra="forbid")

    language: str
    split: str
    subset: NomiraclSubset
    query_id: str
    query: str
    docids: list[str]
    template: str
    results: dict[str, str | None]


def read_queries(path: Path) -> list[NomiraclQuery]:
    return [validate_row(NomiraclQuery, obj, path, line) for line, obj in iter_json_objects(path)]


class ModelLanguage(BaseModel):
    """Everything the bench reports for one model on one language."""

    model_config = ConfigDict(frozen=True)

    rates: NomiraclRates
    released_parser_rates: NomiraclRates
    released_code_rates: ReleasedCodeRates
    disagreements: int
    missing_outputs: int


def evaluate(queries: Iterable[NomiraclQuery]) -> dict[str, dict[str, ModelLanguage]]:
    """Both parsers' verdicts on every output, and the rates, per model and language.

    A null output is counted as missing: left out of both parsers' rates, and an invalid
    output in the released code's denominator (see `released_code_rates`)."""
    verdicts: dict[tuple[str, str], dict[str, list[NomiraclOutcome]]] = defaultdict(
        lambda: {"lenient": [], "released": [], "released_code": []}
    )
    disagreements: Counter[tuple[str, str]] = Counter()
    missing: Counter[tuple[str, str]] = Counter()
    for query in queries:
        for model, output in query.results.items():
            key = (model, query.language)
            outcomes = verdicts[key]
            if output is None:
                missing[key] += 1
                outcomes["released_code"].append(NomiraclOutcome(query.subset, INVALID))
                continue
            labels = both_labels(output)
            disagreements[key] += labels["lenient"] != labels["released"]
            for parser, label in labels.items():
                outcomes[parser].append(NomiraclOutcome(query.subset, label))
            outcomes["released_code"].append(NomiraclOutcome(query.subset, labels["released"]))
    report: dict[str, dict[str, ModelLanguage]] = defaultdict(dict)
    for (model, language), outcomes in sorted(verdicts.items()):
        report[model][language] = ModelLanguage(
            rates=nomiracl_rates(outcomes["lenient"]),
            released_parser_rates=nomiracl_rates(outcomes["released"]),
            released_code_rates=released_code_rates(outcomes["released_code"]),
            disagreements=disagreements[(model, language)],
            missing_outputs=missing[(model, language)],
        )
    return dict(report)


def label_counts(queries: Iterable[NomiraclQuery]) -> dict[str, dict[str, dict[str, int]]]:
    """Per parser and model, how often the outputs fell in each class, all languages together."""
    counts: dict[str, dict[str, dict[str, int]]] = {
        parser: defaultdict(lambda: dict.fromkeys(LABELS, 0)) for parser in PARSERS
    }
    for query in queries:
        for model, output in query.results.items():
            if output is None:
                continue
            for parser, label in both_labels(output).items():
                counts[parser][model][label] += 1
    return {parser: dict(sorted(by_model.items())) for parser, by_model in counts.items()}


def disagreement_pairs(queries: Iterable[NomiraclQuery]) -> dict[str, dict[str, int]]:
    """Per model, how many outputs went from each lenient verdict to each released one."""
    pairs: dict[str, Counter[str]] = defaultdict(Counter)
    for query in queries:
        for model, output in query.results.items():
            if output is None:
                continue
            labels = both_labels(output)
            if labels["lenient"] != labels["released"]:
                pairs[model][f"{labels['lenient']} -> {labels['released']}"] += 1
    return {model: dict(sorted(c.items())) for model, c in sorted(pairs.items())}


TABLE_COLUMNS = (
    ("rates", "hallucination", "hall. lenient"),
    ("released_parser_rates", "hallucination", "hall. released"),
    ("released_code_rates", "hallucination", "hall. rel.code"),
    ("rates", "error", "err. lenient"),
    ("released_parser_rates", "error", "err. released"),
    ("released_code_rates", "error", "err. rel.code"),
)


def _percent(rate: Rate | Any) -> str:
    if rate.value is None:
        return f"{'-':>6} {'0/0':>7}"
    mark = "*" if getattr(rate, "zeroed", False) else " "
    return f"{100 * rate.value:5.1f}%{mark}{f'{rate.numerator}/{rate.denominator}':>7}"


def format_table(report: dict[str, dict[str, ModelLanguage]]) -> str:
    """One line per model and language: each rate with numerator/denominator, and the number of
    outputs the parsers disagree on. `*`: the released code's 0.0 (correct label never given)."""
    header = f"{'model':28} {'lang':4} " + " ".join(f"{t:>15}" for _, _, t in TABLE_COLUMNS)
    header += f" {'disagree':>8}"
    lines = [header, "-" * len(header)]
    for model, by_language in report.items():
        for language, r in by_language.items():
            cells = " ".join(
                f"{_percent(getattr(getattr(r, group), field)):>15}"
                for group, field, _ in TABLE_COLUMNS
            )
            lines.append(f"{model:28} {language:4} {cells} {r.disagreements:>8}")
    return "\n".join(lines)


def run(queries_path: Path) -> tuple[dict[str, Any], str]:
    """The JSON report and the printed table for one queries file."""
    queries = read_queries(queries_path)
    report = evaluate(queries)

    def section(name: str) -> dict[str, dict[str, Any]]:
        return {
            model: {lang: getattr(r, name) for lang, r in by_lang.items()}
            for model, by_lang in report.items()
        }

    def dumped(name: str) -> dict[str, dict[str, Any]]:
        return {
            model: {lang: value.model_dump(mode="json") for lang, value in by_lang.items()}
            for model, by_lang in section(name).items()
        }

    disagreements = section("disagreements")
    result = {
        "source": {
            "path": os.path.relpath(queries_path.resolve(), REPO_ROOT),
            "sha256": hashlib.sha256(queries_path.read_bytes()).hexdigest(),
            "queries": len(queries),
        },
        "classifiers": CLASSIFIERS,
        "definitions": DEFINITIONS,
        "label_counts": label_counts(queries),
        "disagreements": {
            "total": sum(n for by_lang in disagreements.values() for n in by_lang.values()),
            "by_model_and_language": disagreements,
            "by_verdict_pair": disagreement_pairs(queries),
        },
        "missing_outputs": section("missing_outputs"),
        "rates": dumped("rates"),
        "released_parser_rates": dumped("released_parser_rates"),
        "released_code_rates": dumped("released_code_rates"),
    }
    return result, format_table(report)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    if not args.queries.is_file():
        print(f"NoMIRACL queries not found: {args.queries} (pass --queries)", file=sys.stderr)
        return 2
    report, table = run(args.queries)
    write_json(args.output, report)
    print(table)
    print(f"\nwrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
