"""The shared scoring path: statuses, aliases, NoMIRACL rows."""

from __future__ import annotations

import pytest

from parakh.errors import ConfigError
from parakh.metrics.scoring import ScoreItem, resolve_metrics, score_item, score_metric


def test_aliases_resolve_to_registry_names_once() -> None:
    assert resolve_metrics(["em", "f1", "rougeL", "chrf", "chrf++", "EM", "nomiracl"]) == [
        "exact_match",
        "token_f1",
        "rouge_l",
        "chrf",
        "chrf_pp",
        "nomiracl",
    ]
    with pytest.raises(ConfigError, match="Unknown metric 'bleu'"):
        resolve_metrics(["bleu"])


def test_scores_and_failures() -> None:
    item = ScoreItem(id="1", language="en", prediction="the Eiffel Tower", references=["Eiffel"])
    em, f1, lang = score_item(["em", "f1", "language_match"], item)
    assert (em.metric, em.status, em.score, em.scale_max) == ("exact_match", "ok", 0.0, 1.0)
    assert f1.score == pytest.approx(0.666667)
    assert lang.status == "ok" and lang.score == 1.0
    missing = ScoreItem(id="2", language="en", prediction=None, prediction_error="HTTP 500")
    failed = score_metric("chrf", missing)
    assert failed.status == "error" and failed.score is None and "HTTP 500" in (failed.reason or "")
    no_reference = score_metric("rouge_l", ScoreItem(id="3", language="en", prediction="x"))
    assert no_reference.status == "error" and no_reference.reason == "no reference answer"
    # language_match needs no reference
    assert (
        score_metric("lang", ScoreItem(id="4", language="en", prediction="Hello there")).score == 1
    )


def test_bad_language_code_is_an_error_row_not_a_crash() -> None:
    row = score_metric("language_match", ScoreItem(id="5", language="xx", prediction="hi"))
    assert row.status == "error" and "unknown language code" in (row.reason or "")


@pytest.mark.parametrize(
    ("subset", "output", "metric", "status", "score", "label"),
    [
        (
            "non_relevant",
            "Yes, answer is present",
            "nomiracl_hallucination",
            "ok",
            1.0,
            "answer_present",
        ),
        ("non_relevant", "I don't know", "nomiracl_hallucination", "ok", 0.0, "i_dont_know"),
        ("relevant", "मुझे नहीं पता", "nomiracl_error", "ok", 1.0, "i_dont_know"),
        ("relevant", "Yes, answer is present [2]", "nomiracl_error", "ok", 0.0, "answer_present"),
        ("relevant", "", "nomiracl_error", "invalid", None, "invalid"),
        (
            "non_relevant",
            "Please select one of the contexts",
            "nomiracl_hallucination",
            "invalid",
            None,
            "invalid",
        ),
    ],
)
def test_nomiracl_rows(subset, output, metric, status, score, label) -> None:  # type: ignore[no-untyped-def]
    row = score_metric(
        "nomiracl", ScoreItem(id="q", language="hi", prediction=output, subset=subset)
    )
    assert (row.metric, row.status, row.score, row.label) == (metric, status, score, label)


def test_nomiracl_needs_a_subset() -> None:
    row = score_metric("nomiracl", ScoreItem(id="q", language="hi", prediction="I don't know"))
    assert row.status == "error" and "no NoMIRACL subset" in (row.reason or "")
    odd = score_metric("nomiracl", ScoreItem(id="q", language="hi", prediction="x", subset="odd"))
    assert odd.status == "error" and "unknown subset 'odd'" in (odd.reason or "")
