"""NoMIRACL verdict classifier and hallucination / error rates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parakh.metrics.nomiracl import (
    NomiraclOutcome,
    classify_nomiracl_output,
    nomiracl_rates,
)

CASES = Path(__file__).parent / "cases"
SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
OUTPUT_CASES = json.loads((CASES / "nomiracl_outputs.json").read_text(encoding="utf-8"))["cases"]
RATE_CASES = json.loads((CASES / "nomiracl_rates.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", OUTPUT_CASES, ids=[c["why"] for c in OUTPUT_CASES])
def test_classify_output(case: dict[str, Any]) -> None:
    assert classify_nomiracl_output(case["output"]) == case["expected"]


def _outcomes(rows: list[list[Any]]) -> list[NomiraclOutcome]:
    return [NomiraclOutcome(subset, label) for subset, label, count in rows for _ in range(count)]


@pytest.mark.parametrize("case", RATE_CASES, ids=[c["name"] for c in RATE_CASES])
def test_rates(case: dict[str, Any]) -> None:
    rates = nomiracl_rates(_outcomes(case["rows"])).model_dump()
    for field, expected in case["expected"].items():
        got = rates[field]
        if "value" in expected and expected["value"] is not None:
            assert got["value"] == pytest.approx(expected["value"], abs=1e-12), field
            got = {**got, "value": expected["value"]}
        assert got == expected, field


def test_rates_exclude_invalid_where_released_code_does_not() -> None:
    rows = _outcomes(
        [
            ["non_relevant", "answer_present", 1],
            ["non_relevant", "i_dont_know", 1],
            ["non_relevant", "invalid", 2],
        ]
    )
    rates = nomiracl_rates(rows)
    assert rates.hallucination_rate == 0.5
    assert rates.released_code_hallucination.value == 0.25
    assert rates.error_rate is None


def test_rates_accept_a_generator() -> None:
    rates = nomiracl_rates(NomiraclOutcome("relevant", "answer_present") for _ in range(3))
    assert rates.error.numerator == 0 and rates.error.denominator == 3


@pytest.mark.parametrize(
    ("subset", "label"), [("irrelevant", "invalid"), ("relevant", "I don't know")]
)
def test_rates_reject_unknown_subset_or_label(subset: Any, label: Any) -> None:
    with pytest.raises(ValueError, match="row 0: unknown"):
        nomiracl_rates([NomiraclOutcome(subset, label)])


def test_classifier_on_the_shared_nomiracl_outputs() -> None:
    """Every real output classifies, and the big models' verdicts are rarely invalid."""
    path = SHARED_DATA / "nomiracl" / "queries.jsonl"
    if not path.is_file():
        pytest.skip(f"shared data not available: {path}")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    labels: dict[str, list[str]] = {}
    for row in rows:
        for model, output in row["results"].items():
            labels.setdefault(model, []).append(classify_nomiracl_output(output))
    assert len(labels) == 11
    for model in (
        "gpt-4-azure",
        "Mixtral-8x7B-Instruct-v0.1",
        "Mistral-7B-Instruct-v0.2",
        "flan-t5-xxl",
    ):
        assert labels[model].count("invalid") / len(labels[model]) < 0.01, model
    # gpt-3.5's invalid outputs are its API failures ("Unable to generate response.").
    gpt35 = [
        classify_nomiracl_output(row["results"]["gpt-3.5-turbo-azure"])
        for row in rows
        if row["results"]["gpt-3.5-turbo-azure"] != "Unable to generate response."
    ]
    assert gpt35.count("invalid") == 0
