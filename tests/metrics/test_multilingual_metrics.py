"""Every registered reference metric on Hindi, Tamil, Telugu, Kannada, Bengali and Urdu (and the
other languages of the case file): identical strings score full marks, and the metric's kind of
"nothing in common" scores 0 (see cases/multilingual.json for what that is per metric)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.metrics.registry import reference_metrics

CASES = json.loads((Path(__file__).parent / "cases" / "multilingual.json").read_text("utf-8"))
LANGUAGES = CASES["languages"]
REQUIRED = {"hi", "ta", "te", "kn", "bn", "ur"}
# Which pairs each metric must score 0: lexical metrics share no characters, embedding
# similarity shares no meaning, language match answers in another language.
NOTHING_IN_COMMON = {
    "exact_match": "disjoint",
    "token_f1": "disjoint",
    "rouge_l": "disjoint",
    "ascii_rouge": "disjoint",
    "chrf": "disjoint",
    "chrf_pp": "disjoint",
    "embedding_similarity": "unrelated",
    "language_match": "other_language",
}


def test_every_metric_declares_what_scores_zero() -> None:
    assert set(NOTHING_IN_COMMON) == set(reference_metrics())
    for language in REQUIRED:
        for kind in set(NOTHING_IN_COMMON.values()):
            assert LANGUAGES[language].get(kind), (language, kind)


# rouge-score's ASCII-only tokenizer, reproduced on purpose: it gives identical text in any
# other script no tokens, so it scores what rouge-score scores (tests/metrics/test_ascii_rouge.py).
SCRIPT_BLIND = {"ascii_rouge"}


@pytest.mark.parametrize("metric", sorted(set(reference_metrics()) - SCRIPT_BLIND))
@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_identical_strings_score_full_marks(metric: str, language: str) -> None:
    m = reference_metrics()[metric]
    for sentence in LANGUAGES[language]["identical"]:
        assert m.fn(sentence, [sentence], language) == m.scale_max, sentence


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_script_blind_metric_scores_identical_strings_as_rouge_score_does(
    language: str,
) -> None:
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"])
    for sentence in LANGUAGES[language]["identical"]:
        expected = scorer.score(sentence, sentence)["rougeL"].fmeasure
        assert reference_metrics()["ascii_rouge"].fn(sentence, [sentence], language) == expected
        if language in REQUIRED:
            assert expected == 0.0, sentence  # no [a-z0-9] in these scripts


@pytest.mark.parametrize("metric", sorted(reference_metrics()))
@pytest.mark.parametrize("language", sorted(REQUIRED))
def test_nothing_in_common_scores_zero(metric: str, language: str) -> None:
    m = reference_metrics()[metric]
    kind = NOTHING_IN_COMMON[metric]
    for case in LANGUAGES[language][kind]:
        if kind == "other_language":
            prediction, reference = case, LANGUAGES[language]["identical"][0]
        else:
            prediction, reference = case
        if kind == "disjoint":
            assert not set(prediction.replace(" ", "")) & set(reference.replace(" ", ""))
        assert m.fn(prediction, [reference], language) == 0.0, (prediction, reference)
