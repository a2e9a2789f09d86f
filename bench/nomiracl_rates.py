"""NoMIRACL hallucination and error rates of the 11 baseline models, per model and language.

Reads the NoMIRACL queries with the authors' model outputs (shared/data/nomiracl/queries.jsonl),
classifies every output with `parakh.metrics.nomiracl.classify_nomiracl_output`, and writes
bench/results/nomiracl_rates.json: per model and language the paper's rates (invalid outputs
excluded), the invalid rates, and, for comparison only, the rates as NoMIRACL's released code
computes them (dividing by all outputs). Prints a short table.

    python bench/nomiracl_rates.py [--queries PATH] [--output PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from parakh.io import iter_json_objects, validate_row, write_json
from parakh.metrics.nomiracl import (
    LABELS,
    NomiraclOutcome,
    NomiraclRates,
    NomiraclSubset,
    Rate,
    classify_nomiracl_output,
    nomiracl_rates,
)

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_QUERIES = REPO_ROOT.parent / "shared" / "data" / "nomiracl" / "queries.jsonl"
DEFAULT_OUTPUT = REPO_ROOT / "bench" / "results" / "nomiracl_rates.json"

DEFINITIONS = {
    "hallucination": "FP / (FP + TN) on the non_relevant subset: FP = 'answer present', "
    "TN = 'I don't know'; invalid outputs excluded (paper definition)",
    "error": "FN / (FN + TP) on the relevant subset: FN = 'I don't know', "
    "TP = 'answer present'; invalid outputs excluded (paper definition)",
    "invalid_relevant / invalid_non_relevant": "invalid outputs / all outputs of the subset",
    "released_code_hallucination / released_code_error": "same numerators divided by all "
    "outputs of the subset, invalid included, as NoMIRACL's released ConfusionMetric does; "
    "for comparison with published tables only",
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


def rates_by_model_and_language(
    queries: Iterable[NomiraclQuery],
) -> dict[str, dict[str, NomiraclRates]]:
    """Classify every output and compute the NoMIRACL rates per model and language."""
    outcomes: dict[str, dict[str, list[NomiraclOutcome]]] = defaultdict(lambda: defaultdict(list))
    for query in queries:
        for model, output in query.results.items():
            label = classify_nomiracl_output(output)
            outcomes[model][query.language].append(NomiraclOutcome(query.subset, label))
    return {
        model: {language: nomiracl_rates(rows) for language, rows in sorted(by_lang.items())}
        for model, by_lang in sorted(outcomes.items())
    }


def label_counts(queries: Iterable[NomiraclQuery]) -> dict[str, dict[str, int]]:
    """How often each model's outputs fell in each class, all languages together."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(LABELS, 0))
    for query in queries:
        for model, output in query.results.items():
            counts[model][classify_nomiracl_output(output)] += 1
    return dict(sorted(counts.items()))


TABLE_COLUMNS = (
    ("hallucination", "hallucination"),
    ("error", "error"),
    ("invalid_non_relevant", "invalid non-rel"),
    ("invalid_relevant", "invalid rel"),
    ("released_code_hallucination", "released-code hall."),
    ("released_code_error", "released-code err."),
)


def _percent(rate: Rate) -> str:
    if rate.value is None:
        return f"{'-':>6} {'0/0':>9}"
    return f"{100 * rate.value:5.1f}% {f'{rate.numerator}/{rate.denominator}':>9}"


def format_table(rates: dict[str, dict[str, NomiraclRates]]) -> str:
    """One line per model and language: each rate as a percentage with numerator/denominator."""
    header = f"{'model':28} {'lang':4} " + " ".join(f"{title:>19}" for _, title in TABLE_COLUMNS)
    lines = [header, "-" * len(header)]
    for model, by_language in rates.items():
        for language, r in by_language.items():
            cells = " ".join(f"{_percent(getattr(r, field)):>19}" for field, _ in TABLE_COLUMNS)
            lines.append(f"{model:28} {language:4} {cells}")
    return "\n".join(lines)


def run(queries_path: Path) -> tuple[dict[str, Any], str]:
    """The JSON report and the printed table for one queries file."""
    queries = read_queries(queries_path)
    rates = rates_by_model_and_language(queries)
    report = {
        "source": {
            "path": os.path.relpath(queries_path.resolve(), REPO_ROOT),
            "sha256": hashlib.sha256(queries_path.read_bytes()).hexdigest(),
            "queries": len(queries),
        },
        "classifier": "parakh.metrics.nomiracl.classify_nomiracl_output",
        "definitions": DEFINITIONS,
        "label_counts": label_counts(queries),
        "rates": {
            model: {language: r.model_dump(mode="json") for language, r in by_lang.items()}
            for model, by_lang in rates.items()
        },
    }
    return report, format_table(rates)


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
