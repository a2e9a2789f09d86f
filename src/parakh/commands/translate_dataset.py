"""`parakh translate-dataset`: translate a dataset, keep items that survive a round trip.

    parakh translate-dataset --languages hi ta translator=indictrans2 dataset=demo

Writes `<lang>/questions.jsonl` (the kept items), `roundtrip.jsonl` (a row per item and
language) and `report.json` under `--out` (default
data/processed/<dataset>/translate-dataset/<translator>/); docs/translation.md explains them.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TypedDict

from parakh.backends.cache import ResponseCache
from parakh.commands.grammar import add_out, list_value, split_overrides
from parakh.config import compose
from parakh.errors import ConfigError
from parakh.io import read_jsonl, write_json, write_jsonl
from parakh.project import resolve
from parakh.schema import Question
from parakh.stage_outputs import Layout
from parakh.text.languages import check_language
from parakh.translation.roundtrip import (
    DEFAULT_THRESHOLD,
    FILTERINGS,
    Filtering,
    report,
    round_trip,
)
from parakh.translation.service import make_service

HELP = "translate a dataset, keep round-trip chrF >= 50"


class _Options(TypedDict):
    pivot: str | None
    contexts: bool
    filtering: Filtering


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Translate a dataset's questions, reference answers and context passages into each "
        "language and back; keep an item only when every field's round-trip chrF reaches the "
        "threshold."
    )
    parser.add_argument(
        "overrides", nargs="*", help="Hydra overrides, e.g. translator=indictrans2 dataset=demo"
    )
    parser.add_argument(
        "--languages",
        nargs="+",
        required=True,
        metavar="LANG",
        help="target language codes: hi ta kn, or [hi,ta,kn]",
    )
    parser.add_argument(
        "--input", type=Path, default=None, help="questions JSONL (default: curated questions)"
    )
    add_out(parser, "output folder")
    parser.add_argument(
        "--threshold",
        type=float,
        default=DEFAULT_THRESHOLD,
        help=f"lowest round-trip chrF (0-100) that every translated field of an item must "
        f"reach for the item to be kept (default {DEFAULT_THRESHOLD:g})",
    )
    parser.add_argument(
        "--pivot",
        default=None,
        metavar="LANG",
        help="translate through this language: source -> LANG -> target (e.g. --pivot hi, "
        "as the INDIC QA BENCHMARK built its data); default: direct",
    )
    parser.add_argument(
        "--filter",
        dest="filtering",
        choices=[f.replace("_", "-") for f in FILTERINGS],
        default="per-hop",
        help="per-hop (default): check every hop by its own back-translation (the INDIC QA "
        "BENCHMARK's filter); end-to-end: one round trip back to the source language",
    )
    parser.add_argument(
        "--contexts",
        choices=("translate", "keep"),
        default="translate",
        help="context passages: translate them sentence by sentence and filter on their round "
        "trip too (default), or keep them unchanged and out of the filter",
    )


def run(args: argparse.Namespace) -> int:
    # `--languages hi ta translator=x`: argparse gives the override to --languages
    words, overrides = split_overrides(args.languages)
    args.languages = [code for word in words for code in list_value(word)]
    cfg = compose([*overrides, *args.overrides])
    if cfg.translator.kind == "none":
        raise ConfigError(
            "translate-dataset needs a translator: pass e.g. translator=indictrans2 "
            "(translator=none translates nothing)"
        )
    if not 0 <= args.threshold <= 100:
        raise ConfigError(f"--threshold {args.threshold:g} is outside chrF's range 0..100")
    filtering: Filtering = "end_to_end" if args.filtering == "end-to-end" else "per_hop"
    options = _Options(  # how to translate and filter, for round_trip and its report alike
        pivot=check_language(args.pivot) if args.pivot is not None else None,
        contexts=args.contexts == "translate",
        filtering=filtering,
    )
    layout = Layout.of(cfg)
    source = resolve(args.input) if args.input else layout.curated_questions
    out = resolve(args.out or layout.processed / "translate-dataset" / cfg.translator.name)
    items = read_jsonl(source, Question)
    cache = ResponseCache(resolve(cfg.paths.cache))
    service = make_service(cfg.translator, cache)
    try:
        rows, kept = round_trip(service, items, args.languages, args.threshold, **options)
    finally:
        service.close()
        cache.close()
    for language, questions in kept.items():
        write_jsonl(out / language / "questions.jsonl", questions)
    write_jsonl(out / "roundtrip.jsonl", rows)
    summary = report(rows, cfg.translator.name, args.threshold, **options)
    summary["input"] = str(source)
    write_json(out / "report.json", summary)
    for language, stats in summary["languages"].items():
        median = stats["chrf"].get("median")
        print(
            f"{language}: kept {stats['kept']}, dropped {stats['dropped']}, errors "
            f"{stats['error']}, skipped {stats['skipped']}; median round-trip chrF {median}"
        )
    print(f"-> {out}")
    return 0
