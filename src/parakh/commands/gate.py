"""`parakh gate`: the release gates' verdict, for CI (docs/gates.md).

    parakh gate                          # the default dataset and judge of conf/config.yaml
    parakh gate demo judge=smoke         # reports/demo/smoke/gates.json
    parakh gate --report path/to/gates.json

Reads the gates.json that aggregate wrote and prints one line per failed check (gate, model,
language and figures). Exit 0: every check passed; 1: a check failed or the run was partial;
2: no gates.json, or no gate configured (`aggregate.gates`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from parakh.commands.grammar import split_overrides, take_overrides
from parakh.config import compose
from parakh.errors import ConfigError
from parakh.report.files import ReportFiles
from parakh.report.gates import GateCheck
from parakh.stage_outputs import Layout

HELP = "exit 1 naming each failed release gate (aggregate.gates), 0 when all pass"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", nargs="*", help="the dataset, and judge= if not the default")
    parser.add_argument("--report", type=Path, help="a report folder or its gates.json")


def gates_path(args: argparse.Namespace) -> Path:
    words, overrides = split_overrides(args.dataset)
    judge = take_overrides(overrides, ("judge",))
    if len(words) > 1:
        raise ConfigError(f"one dataset at a time, got {', '.join(words)}")
    if args.report is not None:
        if words or judge:
            raise ConfigError("give either --report or a dataset and judge=, not both")
        report: Path = args.report
        return report if report.suffix == ".json" else ReportFiles(report).gates_json
    chosen = [f"dataset={w}" for w in words] + [f"judge={j}" for j in judge.values()]
    return ReportFiles(Layout.of(compose(chosen)).reports).gates_json


def run(args: argparse.Namespace) -> int:
    path = gates_path(args)
    if not path.is_file():
        print(f"gate: no {path}: run aggregate first (`dvc repro`)", file=sys.stderr)
        return 2
    document = json.loads(path.read_text(encoding="utf-8"))
    checks = document["checks"]
    if not checks:
        print(f"gate: {path} has no checks: no gate configured (aggregate.gates)", file=sys.stderr)
        return 2
    failed = [GateCheck(**c) for c in checks if not c["passed"]]
    for check in failed:
        print(f"FAIL {check.line()}")
    if partial := document.get("partial"):
        print(f"FAIL partial run ({partial}): gates need every judge row")
    if failed or partial:
        print(f"gate: {len(failed)} of {len(checks)} checks failed ({path})", file=sys.stderr)
        return 1
    print(f"gate: all {len(checks)} checks passed ({path})")
    return 0
