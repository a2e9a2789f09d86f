"""`ascii_rouge`: rouge-score's default rougeL, reproduced in our code (rouge-score is the oracle).

The point of the metric is the contrast with `rouge_l`: rouge-score's tokenizer keeps only
[a-z0-9], so an Indic answer identical to its reference scores 0, which is why published Indic
ROUGE-L figures (L3Cube-IndicQuest's among them) sit near zero.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
from rouge_score import rouge_scorer, tokenizers

from parakh.metrics import lexical
from parakh.metrics.registry import get_reference_metric, metric_spec

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
INDICQUEST = SHARED_DATA / "indicquest"
SCORER = rouge_scorer.RougeScorer(["rougeL"])

PAIRS = [
    ("The Normans conquered England in 1066.", "In 1066 the Normans conquered England."),
    ("New Delhi", "new delhi"),
    ("Beyoncé sang in 2003!", "Beyonce sang, in 2003."),  # é is dropped by rouge-score
    ("भारत की राजधानी नई दिल्ली है।", "भारत की राजधानी नई दिल्ली है।"),
    ("இந்தியாவின் தலைநகரம் புது தில்லி.", "இந்தியாவின் தலைநகரம் புது தில்லி."),
    ("दिल्ली 1911 में राजधानी बनी", "1911 में दिल्ली"),  # only the digits survive
    ("Mumbai मुंबई है", "मुंबई Mumbai"),
    ("İstanbul KELVIN \u212a", "i̇stanbul kelvin k"),  # non-ASCII lower-casing, as str.lower
    ("x", "x y z"),
]


def _oracle(prediction: str, reference: str) -> float:
    return SCORER.score(reference, prediction)["rougeL"].fmeasure


@pytest.mark.parametrize(("prediction", "reference"), PAIRS)
def test_equals_rouge_score_on_english_indic_and_mixed(prediction: str, reference: str) -> None:
    assert lexical.ascii_rouge(prediction, [reference], None) == pytest.approx(
        _oracle(prediction, reference), abs=1e-12
    )
    assert lexical.ascii_tokens(prediction) == tokenizers.DefaultTokenizer().tokenize(prediction)


def test_identical_indic_strings_score_zero_where_rouge_l_scores_one() -> None:
    sentence = "भारत की राजधानी नई दिल्ली है।"
    assert lexical.ascii_rouge(sentence, [sentence], "hi") == 0.0
    assert lexical.rouge_l(sentence, [sentence], "hi") == 1.0


def test_equals_rouge_score_on_random_mixed_script_strings() -> None:
    rng = random.Random(11)
    alphabet = list("abcXYZ019 .,-'") + ["é", "ß", "İ", "क", "ी", "்", "த", "\u212a", "\n"]
    for _ in range(500):
        prediction = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        reference = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        if not reference.strip():
            continue
        expected = 0.0 if not prediction.strip() else _oracle(prediction, reference)
        assert lexical.ascii_rouge(prediction, [reference], None) == pytest.approx(
            expected, abs=1e-12
        ), (prediction, reference)


def test_multi_reference_takes_the_best_as_rouge_score_multi_does() -> None:
    prediction = "The Normans conquered England in 1066."
    references = ["Normandy is in France.", "In 1066 the Normans conquered England."]
    expected = SCORER.score_multi(references, prediction)["rougeL"].fmeasure
    assert lexical.ascii_rouge(prediction, references, "en") == pytest.approx(expected, abs=1e-12)


def test_equals_rouge_score_on_the_indicquest_answers() -> None:
    """Every IndicQuest language: each answer against its question, as rouge-score scores it."""
    files = sorted(INDICQUEST.glob("*.csv")) if INDICQUEST.is_dir() else []
    if not files:
        pytest.skip(f"shared data not available: {INDICQUEST}")
    compared = 0
    for path in files:
        with path.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))[:40]
        for row in rows:
            prediction, reference = row["Answer"], row["Question"]
            if not reference.strip():
                continue
            assert lexical.ascii_rouge(prediction, [reference], None) == pytest.approx(
                _oracle(prediction, reference), abs=1e-12
            ), (path.name, prediction, reference)
            compared += 1
    assert compared > 500


def test_registered_with_its_spec_and_aliases() -> None:
    metric = get_reference_metric("rouge_score")
    assert metric.name == "ascii_rouge" and metric.fn is lexical.ascii_rouge
    spec = metric_spec("ascii_rouge")
    assert (spec.direction, spec.scale_min, spec.scale_max, spec.aggregation) == (
        "higher",
        0.0,
        1.0,
        "mean",
    )
    assert "[a-z0-9]" in spec.description


def test_blank_prediction_scores_zero_and_blank_reference_is_an_error() -> None:
    assert lexical.ascii_rouge("  ", ["New Delhi"], "en") == 0.0
    with pytest.raises(ValueError, match="reference 0 is blank"):
        lexical.ascii_rouge("New Delhi", [" "], "en")
