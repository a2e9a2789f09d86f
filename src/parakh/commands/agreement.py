"""`parakh agreement`: judge-human agreement of any judge rows with any file of human grades.

    parakh agreement --judgments data/processed/demo/judge/smoke/*.jsonl \\
        --human grades.jsonl [--mappings mappings.yaml] [--out agreement.json]

Judge rows are `Judgment` JSONL, human grades `HumanGrade` JSONL. A mappings file declares,
per metric, how grades on another scale map onto the judge's, e.g. `factual_correctness:
{table: {1: 0, 2: 0, 3: 1, 4: 2}}`. Prints the statistics per metric and language as JSON.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import yaml
from pydantic import ValidationError

from parakh.commands.grammar import add_out
from parakh.errors import ConfigError, first_field_error
from parakh.io import read_jsonl, write_json
from parakh.report.agreement import judge_human_agreement
from parakh.schema import HumanGrade, Judgment
from parakh.stats.agreement import ScaleMapping

HELP = "judge-human agreement of judge rows with a human grades file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--judgments", type=Path, nargs="+", required=True, help="judge rows")
    parser.add_argument("--human", type=Path, required=True, help="HumanGrade JSONL")
    parser.add_argument("--mappings", type=Path, help="YAML: metric -> declared scale mapping")
    add_out(parser, "also write the JSON here")


def run(args: argparse.Namespace) -> int:
    path = args.mappings
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {} if path else {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of metric -> scale mapping")
    mappings = {}
    for metric, spec in data.items():
        try:
            mappings[str(metric)] = ScaleMapping.model_validate(spec)
        except ValidationError as e:
            field, message = first_field_error(e)
            raise ConfigError(f"{path}: mapping of '{metric}', field '{field}': {message}") from e
    judgments = [row for path in args.judgments for row in read_jsonl(path, Judgment)]
    grades = read_jsonl(args.human, HumanGrade)
    results = judge_human_agreement(judgments, grades, mappings)
    document = {"metrics": [r.to_dict() for r in results]}
    if args.out:
        write_json(args.out, document)
    print(json.dumps(document, indent=2, ensure_ascii=False, sort_keys=True))
    return 0
