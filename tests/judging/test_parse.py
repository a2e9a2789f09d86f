"""Strict judge-output parsing: a data-file corpus of outputs and their expected verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parakh.judging.parse import parse_verdict
from parakh.metrics.rubric import Rubric, load_rubric

CASES = json.loads((Path(__file__).parent / "cases" / "judge_outputs.json").read_text("utf-8"))[
    "cases"
]


def _rubric(name: str) -> Rubric:
    return load_rubric(name)


def test_the_corpus_covers_every_kind_of_failure() -> None:
    assert len(CASES) >= 40
    reasons = " | ".join(c["expected"].get("reason", "") for c in CASES)
    for kind in (
        "empty output",
        "text outside the JSON object",
        "2 JSON objects",
        "outside 0..2",
        "not a number",
        "truncated",
        "no JSON object",
    ):
        assert kind in reasons, kind
    assert any("```" in c["output"] for c in CASES if c["expected"]["valid"])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_judge_output(case: dict[str, Any]) -> None:
    verdict = parse_verdict(case["output"], _rubric(case["rubric"]))
    expected = case["expected"]
    if expected["valid"]:
        assert verdict.valid, verdict.reason
        assert verdict.reason is None
        assert verdict.scores == expected["scores"]
        assert verdict.justification == expected["justification"]
    else:
        assert not verdict.valid
        assert verdict.scores == {}  # no failure becomes a score
        assert expected["reason"] in (verdict.reason or ""), verdict.reason


VALID = [c for c in CASES if c["expected"]["valid"]]


@pytest.mark.parametrize("case", VALID, ids=[c["name"] for c in VALID])
def test_every_truncation_of_a_valid_output_is_invalid(case: dict[str, Any]) -> None:
    """Cut anywhere before its closing brace, a valid output never yields a score."""
    output: str = case["output"]
    rubric = _rubric(case["rubric"])
    close = output.rindex("}")
    for cut in range(close):
        assert not parse_verdict(output[:cut], rubric).valid, output[:cut]


def test_none_is_invalid() -> None:
    verdict = parse_verdict(None, _rubric("coherence"))
    assert not verdict.valid and verdict.reason == "empty output"
