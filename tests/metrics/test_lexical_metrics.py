"""Lexical reference metrics: JSON cases, parity with SQuAD v1.1, rouge-score and sacrebleu."""

from __future__ import annotations

import csv
import json
import random
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from rouge_score import rouge_scorer
from sacrebleu.metrics import CHRF

from parakh.metrics import lexical
from parakh.text.normalize import canonical_text

CASES = Path(__file__).parent / "cases"
SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
XQUAD = SHARED_DATA / "xquad"
INDICQUEST = SHARED_DATA / "indicquest"

METRICS: dict[str, Callable[[str, Sequence[str], str | None], float]] = {
    "exact_match": lexical.exact_match,
    "token_f1": lexical.token_f1,
    "rouge_l": lexical.rouge_l,
    "chrf": lexical.chrf,
    "chrf_pp": lexical.chrf_pp,
}
FULL_SCORE = {"exact_match": 1.0, "token_f1": 1.0, "rouge_l": 1.0, "chrf": 100.0, "chrf_pp": 100.0}


# --- The official SQuAD v1.1 evaluation (evaluate-v1.1.py), written out as the reference. ---


def squad_normalize_answer(s: str) -> str:
    """Lower text and remove punctuation, articles and extra whitespace."""

    def remove_articles(text: str) -> str:
        return re.sub(r"\b(a|an|the)\b", " ", text)

    def white_space_fix(text: str) -> str:
        return " ".join(text.split())

    def remove_punc(text: str) -> str:
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    def lower(text: str) -> str:
        return text.lower()

    return white_space_fix(remove_articles(remove_punc(lower(s))))


def squad_f1_score(prediction: str, ground_truth: str) -> float:
    prediction_tokens = squad_normalize_answer(prediction).split()
    ground_truth_tokens = squad_normalize_answer(ground_truth).split()
    common = Counter(prediction_tokens) & Counter(ground_truth_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(ground_truth_tokens)
    return (2 * precision * recall) / (precision + recall)


def squad_exact_match_score(prediction: str, ground_truth: str) -> bool:
    return squad_normalize_answer(prediction) == squad_normalize_answer(ground_truth)


def metric_max_over_ground_truths(
    metric_fn: Callable[[str, str], Any], prediction: str, ground_truths: Sequence[str]
) -> float:
    return max(float(metric_fn(prediction, gt)) for gt in ground_truths)


# --- helpers -------------------------------------------------------------------------------


def _load_cases(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CASES / name).read_text(encoding="utf-8"))
    return data


def _xquad(language: str) -> list[tuple[str, str, str]]:
    """(question, gold answer, context) for every question of the shared XQuAD file."""
    path = XQUAD / f"xquad.{language}.json"
    if not path.is_file():
        pytest.skip(f"shared data not available: {path}")
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        (qa["question"], qa["answers"][0]["text"], paragraph["context"])
        for article in data["data"]
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    ]


def _perturbations(gold: str, other: str) -> list[str]:
    words = gold.split()
    candidates = [
        gold,
        f"the {gold}",
        f"The {gold}.",
        f"an {gold.lower()} !",
        f'"{gold}",',
        gold.upper(),
        f"{gold} ({other})",
        other,
        f"{gold} and {other}",
        gold.replace(" ", "  "),
    ]
    if len(words) > 1:
        candidates.append(" ".join(words[:-1]))
        candidates.append(" ".join(words[1:]))
    if len(gold) > 3:
        candidates.append(gold[: len(gold) // 2])
    return candidates


# --- JSON cases ----------------------------------------------------------------------------

LEXICAL = _load_cases("lexical.json")


@pytest.mark.parametrize("case", LEXICAL["cases"], ids=[c["name"] for c in LEXICAL["cases"]])
def test_lexical_case(case: dict[str, Any]) -> None:
    for metric, expected in case["expected"].items():
        got = METRICS[metric](case["prediction"], case["references"], case["language"])
        assert got == pytest.approx(expected, abs=LEXICAL["tolerance"]), metric


MULTILINGUAL = _load_cases("multilingual.json")["languages"]


@pytest.mark.parametrize("language", sorted(MULTILINGUAL))
def test_identical_strings_score_full_marks(language: str) -> None:
    for sentence in MULTILINGUAL[language]["identical"]:
        for metric, fn in METRICS.items():
            assert fn(sentence, [sentence], language) == pytest.approx(FULL_SCORE[metric]), (
                metric,
                sentence,
            )


@pytest.mark.parametrize("language", sorted(MULTILINGUAL))
def test_disjoint_strings_score_zero(language: str) -> None:
    for prediction, reference in MULTILINGUAL[language]["disjoint"]:
        shared_chars = set(prediction.replace(" ", "")) & set(reference.replace(" ", ""))
        assert not shared_chars, "case is not disjoint"
        for metric, fn in METRICS.items():
            assert fn(prediction, [reference], language) == 0.0, (metric, prediction)


def _indicquest_questions() -> list[tuple[str, str]]:
    if not INDICQUEST.is_dir():
        return []
    rows = []
    for path in sorted(INDICQUEST.glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as f:
            questions = [row["Question"].strip() for row in csv.DictReader(f)]
        rows += [(path.stem, q) for q in questions[:5] if q]
    return rows


def test_indicquest_questions_score_full_marks_against_themselves() -> None:
    rows = _indicquest_questions()
    if not rows:
        pytest.skip(f"shared data not available: {INDICQUEST}")
    assert len({language for language, _ in rows}) == 20
    for language, question in rows:
        for metric, fn in METRICS.items():
            assert fn(question, [question], None) == pytest.approx(FULL_SCORE[metric]), (
                metric,
                language,
                question,
            )


def test_rouge_score_package_scores_identical_hindi_zero_but_we_do_not() -> None:
    """The trap this module avoids: rouge-score's tokenizer deletes every non-Latin letter."""
    sentence = "भारत की राजधानी नई दिल्ली है।"
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    assert scorer.score(sentence, sentence)["rougeL"].fmeasure == 0.0
    assert lexical.rouge_l(sentence, [sentence], "hi") == 1.0


# --- empty inputs ----------------------------------------------------------------------------


@pytest.mark.parametrize("metric", sorted(METRICS))
@pytest.mark.parametrize("prediction", ["", "   ", "\n"])
def test_empty_prediction_scores_zero(metric: str, prediction: str) -> None:
    assert METRICS[metric](prediction, ["New Delhi"], "en") == 0.0


@pytest.mark.parametrize("metric", sorted(METRICS))
def test_empty_reference_list_raises(metric: str) -> None:
    with pytest.raises(ValueError, match="references is empty"):
        METRICS[metric]("New Delhi", [], "en")


@pytest.mark.parametrize("metric", sorted(METRICS))
def test_blank_reference_raises(metric: str) -> None:
    with pytest.raises(ValueError, match="reference 1 is blank"):
        METRICS[metric]("New Delhi", ["Delhi", " "], "en")


@pytest.mark.parametrize("metric", sorted(METRICS))
def test_a_single_string_is_not_a_reference_list(metric: str) -> None:
    with pytest.raises(ValueError, match="single string"):
        METRICS[metric]("New Delhi", "New Delhi", "en")


# --- parity with the reference implementations -------------------------------------------


def test_em_and_f1_equal_official_squad_v11_on_xquad_english() -> None:
    rows = _xquad("en")
    assert len(rows) == 880
    rng = random.Random(13)
    answers = [gold for _, gold, _ in rows]
    questions_compared = 0
    pairs_compared = 0
    for i, (_, gold, _) in enumerate(rows):
        other = answers[(i + rng.randrange(1, len(answers))) % len(answers)]
        compared = False
        for prediction in _perturbations(gold, other):
            for references in ([gold], [other, gold]):
                if not prediction.strip():
                    continue
                if not (prediction.isascii() and all(r.isascii() for r in references)):
                    continue
                assert lexical.exact_match(prediction, references, "en") == (
                    metric_max_over_ground_truths(squad_exact_match_score, prediction, references)
                ), (prediction, references)
                assert lexical.token_f1(prediction, references, "en") == (
                    metric_max_over_ground_truths(squad_f1_score, prediction, references)
                ), (prediction, references)
                compared = True
                pairs_compared += 1
        questions_compared += compared
    # 855 of the 880 gold answers are ASCII; the rest hold en dashes, degree signs and the like,
    # which we treat as punctuation / symbols and SQuAD keeps.
    assert questions_compared >= 850
    assert pairs_compared > 15_000


def _sentences(context: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", context) if len(s.split()) >= 3]


def test_rouge_l_equals_rouge_score_on_english_xquad_sentences() -> None:
    rows = _xquad("en")
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    rng = random.Random(7)
    all_sentences = [s for _, _, context in rows[::20] for s in _sentences(context)]
    pairs = 0
    for question, gold, context in rows:
        candidates = _sentences(context)[:3] + rng.sample(all_sentences, 2) + [gold]
        for sentence in candidates:
            if not (sentence.isascii() and question.isascii()):
                continue
            expected = scorer.score(question, sentence)["rougeL"].fmeasure
            assert lexical.rouge_l(sentence, [question], "en") == pytest.approx(
                expected, abs=1e-12
            ), (sentence, question)
            pairs += 1
    assert pairs > 3000


def test_rouge_l_multi_reference_equals_rouge_score_best() -> None:
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    prediction = "The Normans conquered England in 1066."
    references = ["Normandy is in France.", "In 1066 the Normans conquered England."]
    expected = max(scorer.score(r, prediction)["rougeL"].fmeasure for r in references)
    assert lexical.rouge_l(prediction, references, "en") == pytest.approx(expected, abs=1e-12)


def _chrf_pairs() -> list[tuple[str, str]]:
    pairs = []
    for language in ("en", "hi"):
        rows = _xquad(language)
        answers = [gold for _, gold, _ in rows]
        for i, (question, gold, context) in enumerate(rows[::4]):
            other = answers[(7 * i + 3) % len(answers)]
            first_sentence = context.split(". ")[0]
            pairs += [
                (gold, gold),
                (f"{gold} {other}", gold),
                (other, gold),
                (question, first_sentence),
                (gold, first_sentence),
            ]
    # Our chrF puts text in canonical form first; compare where that changes nothing.
    return [(h, r) for h, r in pairs if canonical_text(h) == h and canonical_text(r) == r]


def test_chrf_equals_sacrebleu_on_xquad() -> None:
    pairs = _chrf_pairs()
    assert len(pairs) > 1500
    chrf_pp = CHRF(word_order=2)
    for hypothesis, reference in pairs:
        expected = sacrebleu.sentence_chrf(hypothesis, [reference]).score
        assert abs(lexical.chrf(hypothesis, [reference], None) - expected) < 1e-9
        expected_pp = chrf_pp.sentence_score(hypothesis, [reference]).score
        assert abs(lexical.chrf_pp(hypothesis, [reference], None) - expected_pp) < 1e-9


def test_chrf_multi_reference_equals_sacrebleu_multi_reference() -> None:
    """sacrebleu's multi-reference sentence chrF keeps the best reference, as we do."""
    hypothesis = "भारत की राजधानी दिल्ली"
    references = ["दिल्ली", "भारत की राजधानी नई दिल्ली है।", "मुंबई"]
    expected = sacrebleu.sentence_chrf(hypothesis, references).score
    assert abs(lexical.chrf(hypothesis, references, "hi") - expected) < 1e-9
    expected_pp = CHRF(word_order=2).sentence_score(hypothesis, references).score
    assert abs(lexical.chrf_pp(hypothesis, references, "hi") - expected_pp) < 1e-9


def test_chrf_is_equal_on_canonically_equivalent_hindi_where_sacrebleu_is_not() -> None:
    precomposed = "\u095b\u093f\u0932\u093e \u0938\u095c\u0915"  # za, rra as single code points
    decomposed = "\u091c\u093c\u093f\u0932\u093e \u0938\u0921\u093c\u0915"
    assert sacrebleu.sentence_chrf(precomposed, [decomposed]).score < 100.0
    assert lexical.chrf(precomposed, [decomposed], "hi") == 100.0
    assert lexical.chrf_pp(precomposed, [decomposed], "hi") == 100.0


def test_xquad_hindi_gold_answers_match_themselves_in_any_unicode_form() -> None:
    """XQuAD hi mixes precomposed and decomposed nuktas; scores must not depend on that."""
    rows = _xquad("hi")
    for _, gold, _ in rows:
        decomposed = unicodedata.normalize("NFD", gold)
        for metric, fn in METRICS.items():
            assert fn(decomposed, [gold], "hi") == pytest.approx(FULL_SCORE[metric]), (metric, gold)
