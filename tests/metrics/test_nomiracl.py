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
    released_code_rates,
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


def _check_fields(rates: dict[str, Any], expected_fields: dict[str, Any]) -> None:
    for field, expected in expected_fields.items():
        got = rates[field]
        if "value" in expected and expected["value"] is not None:
            assert got["value"] == pytest.approx(expected["value"], abs=1e-12), field
            got = {**got, "value": expected["value"]}
        assert got == expected, field


@pytest.mark.parametrize("case", RATE_CASES, ids=[c["name"] for c in RATE_CASES])
def test_rates(case: dict[str, Any]) -> None:
    _check_fields(nomiracl_rates(_outcomes(case["rows"])).model_dump(), case["expected"])


@pytest.mark.parametrize("case", RATE_CASES, ids=[c["name"] for c in RATE_CASES])
def test_released_code_rates(case: dict[str, Any]) -> None:
    """The released ConfusionMetric's rates on the same labels (as if the released parser gave
    them): all outputs in the denominator, 0.0 where the correct label never occurs."""
    rates = released_code_rates(_outcomes(case["rows"])).model_dump()
    _check_fields(rates, case["released_code"])


def test_rates_exclude_invalid_where_released_code_does_not() -> None:
    rows = _outcomes(
        [
            ["non_relevant", "answer_present", 1],
            ["non_relevant", "i_dont_know", 1],
            ["non_relevant", "invalid", 2],
        ]
    )
    rates = nomiracl_rates(rows)
    assert rates.hallucination.value == 0.5
    assert released_code_rates(rows).hallucination.value == 0.25
    assert rates.error.value is None


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


# --- per-row verdict metrics (judge stage, `parakh score`) -----------------------------------


def test_verdict_scores_follow_the_confusion_matrix() -> None:
    from parakh.metrics.nomiracl import verdict_score

    assert verdict_score("non_relevant", "answer_present") == 1.0  # FP: hallucination
    assert verdict_score("non_relevant", "i_dont_know") == 0.0  # TN
    assert verdict_score("relevant", "i_dont_know") == 1.0  # FN: error
    assert verdict_score("relevant", "answer_present") == 0.0  # TP
    assert verdict_score("relevant", "invalid") is None
    with pytest.raises(ValueError, match="unknown subset"):
        verdict_score("irrelevant", "invalid")


def test_rates_from_rows_ignore_errors_and_other_metrics() -> None:
    from parakh.metrics.nomiracl import nomiracl_rates_from_rows

    rows = [
        ("nomiracl_hallucination", "ok", "answer_present"),
        ("nomiracl_hallucination", "ok", "i_dont_know"),
        ("nomiracl_hallucination", "ok", "i_dont_know"),
        ("nomiracl_hallucination", "invalid", "invalid"),
        ("nomiracl_hallucination", "error", None),  # no output: not counted at all
        ("nomiracl_error", "ok", "i_dont_know"),
        ("token_f1", "ok", None),
    ]
    rates = nomiracl_rates_from_rows(rows)
    assert (rates.hallucination.numerator, rates.hallucination.denominator) == (1, 3)
    assert (rates.error.numerator, rates.error.denominator) == (1, 1)
    assert (rates.invalid_non_relevant.numerator, rates.invalid_non_relevant.denominator) == (1, 4)
    with pytest.raises(ValueError, match="has no NoMIRACL label"):
        nomiracl_rates_from_rows([("nomiracl_error", "ok", None)])


def test_row_scoring_reproduces_the_bench_rates() -> None:
    """The per-row path the judge stage uses gives the rates the bench computed, and the mean
    of the scored rows is the paper's rate."""
    from collections import defaultdict

    from parakh.metrics.nomiracl import nomiracl_rates_from_rows
    from parakh.metrics.scoring import ScoreItem, score_metric

    path = SHARED_DATA / "nomiracl" / "queries.jsonl"
    bench = Path(__file__).resolve().parents[2] / "bench" / "results" / "nomiracl_rates.json"
    if not path.is_file() or not bench.is_file():
        pytest.skip("shared NoMIRACL data or the bench result is not available")
    expected = json.loads(bench.read_text(encoding="utf-8"))["rates"]
    rows: dict[tuple[str, str], list[tuple[str, str, str | None, float | None]]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        query = json.loads(line)
        for model, output in query["results"].items():
            item = ScoreItem(
                id=query["query_id"],
                language=query["language"],
                prediction=output or "",
                subset=query["subset"],
            )
            s = score_metric("nomiracl", item)
            rows[(model, query["language"])].append((s.metric, s.status, s.label, s.score))
    assert len({model for model, _ in rows}) == 11
    for (model, language), group in rows.items():
        rates = nomiracl_rates_from_rows((m, st, lab) for m, st, lab, _ in group)
        assert rates.model_dump() == expected[model][language], (model, language)
        scored = [sc for m, st, _, sc in group if m == "nomiracl_hallucination" and st == "ok"]
        if scored:
            assert sum(scored) / len(scored) == pytest.approx(rates.hallucination.value)
