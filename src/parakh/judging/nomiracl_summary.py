"""The NoMIRACL part of a judge summary, per language and `all`, from the verdict rows alone
(`parakh.metrics.nomiracl` says how a row carries the other parser's verdict): the chosen
parser's rates at the top level (FP / (FP + TN), FN / (FN + TP), invalid outputs apart), the
other parser's (`other_parser`), the released code's rates and table (`released_code`,
`released_table`), `parser_disagreements`, and
`missing_outputs`: queries whose row is an `error`, by subset, in no paper-style rate.
docs/judges.md describes each.

The released figures are over the outputs the released code would read: a replayed output
stored blank is one ("" parses as invalid there), while a query with no output (none stored,
not asked, a failed request) is in none of them, as the released code never sees it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from parakh.backends.replay import BLANK_ANSWER
from parakh.config.judge import NomiraclParser
from parakh.metrics.nomiracl import (
    INVALID,
    RELEASED_TABLE_UNITS,
    SUBSET_OF_METRIC,
    SUBSETS,
    NomiraclOutcome,
    labels_of_row,
    nomiracl_rates_from_rows,
    other_parser,
    released_code_rates,
    released_table_row,
)
from parakh.schema import Judgment

ALL = "all"


def _language_summary(rows: Sequence[Judgment], parser: NomiraclParser) -> dict[str, Any]:
    other = other_parser(parser)
    chosen: list[tuple[str, str, str | None]] = []
    others: list[tuple[str, str, str | None]] = []
    released: list[NomiraclOutcome] = []
    missing = dict.fromkeys(SUBSET_OF_METRIC.values(), 0)
    disagreements = 0
    for r in rows:
        subset = SUBSET_OF_METRIC[r.metric]
        if r.status == "error":
            missing[subset] += 1
            if BLANK_ANSWER in (r.reason or ""):  # stored, but blank: the released code reads it
                released.append(NomiraclOutcome(subset, INVALID))
            continue
        if r.label is None:
            raise ValueError(f"{r.metric} row of {r.question_id!r} ({r.status}) has no label")
        labels = labels_of_row(r.label, r.flags)
        disagreements += labels["lenient"] != labels["released"]
        chosen.append((r.metric, r.status, labels[parser]))
        other_status = "invalid" if labels[other] == INVALID else "ok"
        others.append((r.metric, other_status, labels[other]))
        released.append(NomiraclOutcome(subset, labels["released"]))  # type: ignore[arg-type]
    # the released script's cells per subset; None for a subset with no outputs
    by_subset = {s: [o.label for o in released if o.subset == s] for s in SUBSETS}
    table = {s: released_table_row(s, got) if got else None for s, got in by_subset.items()}
    return {
        **nomiracl_rates_from_rows(chosen).model_dump(),
        "parser": parser,
        "other_parser": {"parser": other, **nomiracl_rates_from_rows(others).model_dump()},
        "released_code": released_code_rates(released).model_dump(),
        "released_table": table,
        "parser_disagreements": disagreements,
        "missing_outputs": missing,
    }


def nomiracl_summary(rows: Sequence[Judgment], parser: NomiraclParser) -> dict[str, Any] | None:
    """`{"by_language": {...}, "parsers": {...}}` for the NoMIRACL verdict rows among `rows`;
    None when there are none. `parser` is the judge's `parser`, the one that scored the rows."""
    verdict_rows = [r for r in rows if r.metric in SUBSET_OF_METRIC]
    if not verdict_rows:
        return None
    by_language: dict[str, list[Judgment]] = defaultdict(list)
    for r in verdict_rows:
        by_language[r.language].append(r)
        by_language[ALL].append(r)
    summaries = {
        language: _language_summary(group, parser)
        for language, group in sorted(by_language.items())
    }
    overall = summaries[ALL]
    return {
        "by_language": summaries,
        "parsers": {
            "parser": parser,
            "disagreements": overall["parser_disagreements"],
            "missing_outputs": sum(overall["missing_outputs"].values()),
            "released_table_units": RELEASED_TABLE_UNITS,
        },
    }
