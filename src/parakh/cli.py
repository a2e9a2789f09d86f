"""The `parakh` command: pipeline stages and tools for data users bring.

Each subcommand is a module under `parakh.commands` with a `HELP` line, `add_arguments` and
`run`; stage subcommands pass their arguments straight to the stage's Hydra entry point.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from parakh import __version__, commands
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
    for found in pkgutil.iter_modules(commands.__path__):
        module = importlib.import_module(f"{commands.__name__}.{found.name}")
        if hasattr(module, "HELP"):  # a subcommand, named after its module
            module.add_arguments(sub.add_parser(found.name.replace("_", "-"), help=module.HELP))
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in STAGES:
        stage = importlib.import_module(f"parakh.stages.{args[0]}")
        sys.argv = [f"parakh {args[0]}", *args[1:]]
        stage.main()
        return
    parser = build_parser()
    ns, extra = parser.parse_known_args(args)
    # Hydra overrides after a command's options (`--graders a,b judge=smoke`) join the others
    overrides: list[str] | None = getattr(ns, "overrides", None)
    if extra and (overrides is None or any(e[:1] == "-" or "=" not in e for e in extra)):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if overrides is not None:
        overrides += extra
    if ns.command is None:
        parser.print_help()
        sys.exit(0)
    module = importlib.import_module(f"{commands.__name__}.{ns.command.replace('-', '_')}")
    with reported_as_errors():
        code = module.run(ns)
    sys.exit(code or 0)


if __name__ == "__main__":
    main()
