"""NoMIRACL's two output parsers, chosen by name, and how a row carries the other's verdict.

`lenient` is Parakh's classifier (`parakh.metrics.nomiracl.classify_nomiracl_output`);
`released` is the authors' released substring rules (`parakh.metrics.nomiracl_released`). The
judge config's `parser` picks the one that scores a row; the row's `label` is that parser's
verdict. Where the other parser disagrees, the row carries one flag `<other>_label:<label>`, so a
summary can count disagreements and compute both parsers' rates from the rows alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args

# the parser names are config's; re-exported for the judging code
from parakh.config.judge import DEFAULT_PARSER as DEFAULT_PARSER
from parakh.config.judge import NomiraclParser as NomiraclParser
from parakh.metrics.nomiracl import LABELS, NomiraclLabel, classify_nomiracl_output
from parakh.metrics.nomiracl_released import classify_released

PARSERS: tuple[str, ...] = get_args(NomiraclParser)
_FLAG_SUFFIX = "_label:"
_CLASSIFIERS: dict[NomiraclParser, Callable[[str], NomiraclLabel]] = {
    "lenient": classify_nomiracl_output,
    "released": classify_released,
}


def classify(output: str, parser: NomiraclParser) -> NomiraclLabel:
    """`output`'s verdict by the named parser."""
    if parser not in _CLASSIFIERS:
        raise ValueError(f"unknown NoMIRACL parser {parser!r}; available: {', '.join(PARSERS)}")
    return _CLASSIFIERS[parser](output)


def both_labels(output: str) -> dict[NomiraclParser, NomiraclLabel]:
    """Every parser's verdict on `output`."""
    return {parser: classify(output) for parser, classify in _CLASSIFIERS.items()}


def other_parser(parser: NomiraclParser) -> NomiraclParser:
    return "released" if parser == "lenient" else "lenient"


def disagreement_flag(parser: NomiraclParser, other_label: NomiraclLabel) -> str:
    """The flag on a row scored by `parser` whose other parser says `other_label`."""
    return f"{other_parser(parser)}{_FLAG_SUFFIX}{other_label}"


def labels_of_row(label: str, flags: list[str]) -> dict[NomiraclParser, str]:
    """Both parsers' verdicts on one NoMIRACL row: its `label`, and the other parser's from its
    disagreement flag (the same label when there is none). ValueError on a malformed flag."""
    found: dict[NomiraclParser, str] = {}
    for flag in flags:
        name, sep, other = flag.partition(_FLAG_SUFFIX)
        if not sep or name not in PARSERS:
            continue
        if other not in LABELS:
            raise ValueError(f"flag {flag!r}: unknown label {other!r}, expected one of {LABELS}")
        found[name] = other  # type: ignore[index]
    if len(found) > 1:
        raise ValueError(f"flags {flags} give both parsers' labels; a row carries only the other")
    labels: dict[NomiraclParser, str] = {"lenient": label, "released": label}
    labels.update(found)
    return labels
