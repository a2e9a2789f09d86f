"""NoMIRACL's released parser (the authors' substring rules) beside Parakh's lenient one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parakh.metrics.nomiracl import (
    both_labels,
    classify,
    classify_released,
    disagreement_flag,
    labels_of_row,
)

CASES = json.loads(
    (Path(__file__).parent / "cases" / "nomiracl_parser_outputs.json").read_text(encoding="utf-8")
)["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["why"] for c in CASES])
def test_each_parser_on_each_output(case: dict[str, Any]) -> None:
    assert classify(case["output"], "released") == case["released"]
    assert classify(case["output"], "lenient") == case["lenient"]
    assert both_labels(case["output"]) == {"lenient": case["lenient"], "released": case["released"]}


def test_released_rules_take_the_refusal_first() -> None:
    """ "i don't know" is tested before "answer is present", as in postprocess."""
    assert classify_released("The answer is present elsewhere, but I don't know.") == "i_dont_know"


def test_unknown_parser_is_named() -> None:
    with pytest.raises(ValueError, match="unknown NoMIRACL parser 'strict'.*lenient, released"):
        classify("Yes", "strict")  # type: ignore[arg-type]


def test_a_row_carries_the_other_parsers_verdict_in_a_flag() -> None:
    flag = disagreement_flag("lenient", "invalid")
    assert flag == "released_label:invalid"
    assert labels_of_row("answer_present", [flag]) == {
        "lenient": "answer_present",
        "released": "invalid",
    }
    assert labels_of_row("i_dont_know", ["self_judged"]) == {
        "lenient": "i_dont_know",
        "released": "i_dont_know",
    }
    with pytest.raises(ValueError, match="unknown label 'maybe'"):
        labels_of_row("invalid", ["lenient_label:maybe"])
