"""`parakh langid FILE --column NAME [--out OUT]`: language labels for the rows of a file you bring.

Writes one JSONL row per input row: its id (else its line number) and its language label.
A row whose text is empty gets language "und".
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from parakh.commands.grammar import add_out
from parakh.datasets.records import file_records
from parakh.io import atomic_open, dumps
from parakh.text.langid import label_language

HELP = "label language, script, romanized and code-mixed rows of a CSV/JSONL"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a .csv (with a header row) or .jsonl file")
    parser.add_argument("--column", required=True, help="the column holding the text to label")
    parser.add_argument(
        "--id-column",
        default="id",
        help="column kept as the row id (default: id; if the file "
        "has no such column, the line number is the id)",
    )
    parser.add_argument("--hint", default=None, help="expected language: breaks near-ties only")
    add_out(parser, "output JSONL (default: stdout)")


def run(args: argparse.Namespace) -> int:
    column = args.column
    rows = []
    for record in file_records(args.file, [column]):
        if column not in record.values:
            raise record.error(column, "missing column", "missing_field")
        value = record.values[column]
        if value is not None and not isinstance(value, str):
            raise record.error(column, f"expected text, got {type(value).__name__}")
        row_id = record.values.get(args.id_column)
        label = label_language(value or "", args.hint)
        rows.append(
            {
                "id": str(row_id) if row_id not in (None, "") else str(record.line),
                **label.model_dump(exclude={"source"}),
                "label_source": label.source,
            }
        )
    lines = "".join(dumps(row) + "\n" for row in rows)
    if args.out is None:
        sys.stdout.write(lines)
    else:
        with atomic_open(args.out) as f:
            f.write(lines)
        print(f"langid: {len(rows)} rows labelled -> {args.out}", file=sys.stderr)
    return 0
