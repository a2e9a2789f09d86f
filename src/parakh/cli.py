"""The `parakh` command: pipeline stages and tools for data users bring.

Each subcommand lives in its own module under `parakh.commands` and registers itself through
`COMMANDS`; stage subcommands pass their arguments straight to the stage's Hydra entry point.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from parakh import __version__
from parakh.errors import reported_as_errors

STAGES = {
    "curate": "load a dataset, label languages, dedupe, redact PII, validate",
    "translate": "translate-test inputs: questions and retrieved chunks in English",
    "index": "chunk the KB, embed, retrieve the same top-k chunks for every model",
    "generate": "answer every question with one model (cached, resumable)",
    "backtranslate": "translate-test: each English answer in the question's language",
    "judge": "score every answer: rubric LLM judges and reference metrics",
    "aggregate": "leaderboards, plots, metrics for DVC, runs in MLflow",
}

# name -> (module under parakh.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "info": ("info", "show the composed config and the available config names"),
    "score": ("score", "score predictions in a CSV/JSONL file as the judge stage does"),
    "langid": ("langid", "label language, script, romanized and code-mixed rows of a CSV/JSONL"),
    "reproduce": ("reproduce", "rebuild a leaderboard from an MLflow run or DVC experiment"),
    "agreement": ("agreement", "judge-human agreement of judge rows with a human grades file"),
    "translate-dataset": ("translate_dataset", "translate a dataset, keep round-trip chrF >= 50"),
    "merge-shards": ("merge_shards", "join the shards of a sharded generate or judge run"),
    "replay-models": ("replay_models", "write replay model configs for a stored-answers file"),
    "import-data": ("import_data", "bring a dataset to data/raw/<dataset>, tracked by DVC"),
    "protocol": ("protocol", "run a study's protocol (conf/protocol/) as one dvc exp run"),
    "macro": ("macro", "one metric averaged over datasets, each dataset counting once"),
    "judges": ("judges", "a dataset's judges ranked by agreement with human grades, vs length"),
    "judge-study": ("judge_study", "run several judges on one dataset, then rank them vs humans"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parakh",
        description="Evaluate LLMs as RAG answerers on multilingual Indic questions.",
        epilog="Stages take Hydra overrides, e.g. `parakh generate model=smollm2` or "
        "`parakh generate -m model=extractive,smollm2`. Run the whole pipeline with "
        "`dvc repro`.",
    )
    parser.add_argument("--version", action="version", version=f"parakh {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for stage, help_text in STAGES.items():
        sub.add_parser(stage, help=f"stage: {help_text}", add_help=False)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text)
        importlib.import_module(f"parakh.commands.{module}").add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in STAGES:
        stage = importlib.import_module(f"parakh.stages.{args[0]}")
        sys.argv = [f"parakh {args[0]}", *args[1:]]
        stage.main()
        return
    parser = build_parser()
    ns = parser.parse_args(args)
    if ns.command is None:
        parser.print_help()
        sys.exit(0)
    module = importlib.import_module(f"parakh.commands.{COMMANDS[ns.command][0]}")
    with reported_as_errors():
        code = module.run(ns)
    sys.exit(code or 0)


if __name__ == "__main__":
    main()
