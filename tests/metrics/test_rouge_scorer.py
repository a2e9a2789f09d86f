"""`rouge_l` runs rouge-score's own scorer on Parakh's Unicode tokenizer, with unchanged values.

The oracle is Parakh's ROUGE-L as it was before rouge-score computed it (its own LCS, copied
here verbatim): on a multilingual corpus (every script of cases/multilingual.json, the lexical
case file, code-mixed, romanized, emoji, punctuation-only and blank texts, several references,
and seeded random mixes of them) the two agree to 1e-12, and identical text in any script
still scores 1.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from parakh.metrics import lexical
from parakh.text.normalize import canonical_text
from parakh.text.tokenize import tokenize

CASES = Path(__file__).parent / "cases"


# --- the oracle: Parakh's rouge_l before this change, verbatim ------------------------------


def _lcs_length(a: list[str], b: list[str]) -> int:
    if len(a) < len(b):
        a, b = b, a
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b, start=1):
            current.append(previous[j - 1] + 1 if x == y else max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]


def _lcs_fmeasure(prediction_tokens: list[str], reference_tokens: list[str]) -> float:
    if not prediction_tokens or not reference_tokens:
        return 0.0
    lcs = _lcs_length(reference_tokens, prediction_tokens)
    precision = lcs / len(prediction_tokens)
    recall = lcs / len(reference_tokens)
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def _tokenless(prediction: str, reference: str) -> float:
    return float(canonical_text(prediction).strip() == canonical_text(reference).strip())


def oracle_rouge_l(prediction: str, references: Sequence[str]) -> float:
    lexical.check_references(references)
    if not prediction.strip():
        return 0.0
    prediction_tokens = tokenize(prediction)
    scores = []
    for ref in references:
        reference_tokens = tokenize(ref)
        if not prediction_tokens and not reference_tokens:
            scores.append(_tokenless(prediction, ref))
        else:
            scores.append(_lcs_fmeasure(prediction_tokens, reference_tokens))
    return max(scores)


# --- the corpus ------------------------------------------------------------------------------

HAND_PAIRS: list[tuple[str, list[str]]] = [
    ("भारत की राजधानी नई दिल्ली है।", ["नई दिल्ली भारत की राजधानी है"]),
    ("ज़िले में बड़ी सड़क बनी", ["ज़िले में बड़ी सड़क बनी।"]),  # nukta: precomposed vs combining
    ("இந்தியாவின் தலைநகரம் புது தில்லி", ["புது தில்லி"]),
    ("ঢাকা বাংলাদেশের রাজধানী", ["বাংলাদেশের রাজধানী ঢাকা শহর"]),
    ("Operation ke baad aankh mein dawa daalein", ["operation ke baad dawa daalni hai"]),
    ("Surgery के बाद drops डालें", ["surgery के बाद आँखों में drops डालें"]),
    ("दवा 4 बार, 2 हफ्ते तक 👍", ["दवा दिन में 4 बार 2 हफ्ते तक"]),
    ("😀👍", ["😀👍"]),
    ("😀", ["😢", "😀"]),
    ("!!!", ["…"]),
    ("🙏 🙏", ["धन्यवाद"]),
    ("", ["कुछ भी"]),
    ("   ", ["anything"]),
    ("Beyoncé sang in 2003!", ["Beyonce sang, in 2003."]),
    ("the the the", ["the"]),
    ("a b c d e", ["e d c b a", "a c e", "x y z"]),
    ("ابو ظہبی دارالحکومت ہے", ["دارالحکومت ابو ظہبی"]),
    ("ਪੰਜਾਬ ਦੀ ਰਾਜਧਾਨੀ ਚੰਡੀਗੜ੍ਹ", ["ਚੰਡੀਗੜ੍ਹ"]),
]


def _lexical_case_pairs() -> list[tuple[str, list[str]]]:
    cases = json.loads((CASES / "lexical.json").read_text(encoding="utf-8"))["cases"]
    return [
        (c["prediction"], c["references"])
        for c in cases
        if c["references"] and all(isinstance(r, str) and r.strip() for r in c["references"])
    ]


def _multilingual_sentences() -> list[str]:
    languages = json.loads((CASES / "multilingual.json").read_text(encoding="utf-8"))["languages"]
    sentences: list[str] = []
    for kinds in languages.values():
        sentences += kinds["identical"] + kinds.get("other_language", [])
        for pairs in (kinds.get("disjoint", []), kinds.get("unrelated", [])):
            sentences += [text for pair in pairs for text in pair]
    return sentences


def random_pairs(count: int, seed: int) -> list[tuple[str, list[str]]]:
    """Seeded answers and references drawn from the words of every sentence above, so they
    share some words and not others, in every script, with emoji and punctuation mixed in."""
    rng = random.Random(seed)
    words = [w for s in _multilingual_sentences() for w in s.split()]
    words += [w for p, refs in HAND_PAIRS for s in (p, *refs) for w in s.split()]
    extras = ["😀", "👍", "।", "!!", ",", "—", "2024", "DROPS", "drops"]

    def text(length: int) -> str:
        return " ".join(rng.choice(words + extras) for _ in range(length))

    return [
        (text(rng.randint(0, 25)), [text(rng.randint(1, 25)) for _ in range(rng.randint(1, 3))])
        for _ in range(count)
    ]


def corpus() -> list[tuple[str, list[str]]]:
    sentences = _multilingual_sentences()
    identical = [(s, [s]) for s in sentences]
    crossed = [(a, [b]) for a, b in zip(sentences, sentences[1:] + sentences[:1], strict=True)]
    return HAND_PAIRS + _lexical_case_pairs() + identical + crossed + random_pairs(1500, seed=17)


def test_rouge_l_equals_the_previous_implementation_on_a_multilingual_corpus() -> None:
    pairs = corpus()
    assert len(pairs) > 1600
    for prediction, references in pairs:
        new = lexical.rouge_l(prediction, references, None)
        assert isinstance(new, float)
        assert new == pytest.approx(oracle_rouge_l(prediction, references), abs=1e-12), (
            prediction,
            references,
        )


@pytest.mark.parametrize("sentence", _multilingual_sentences() + ["😀👍", "…", "Surgery के बाद"])
def test_identical_text_scores_one_in_every_script(sentence: str) -> None:
    assert lexical.rouge_l(sentence, [sentence], None) == 1.0


def test_the_scorer_is_rouge_scores_own_with_parakhs_tokenizer() -> None:
    from rouge_score import rouge_scorer

    scorer = lexical.rouge_l_scorer()
    assert isinstance(scorer, rouge_scorer.RougeScorer)
    assert scorer.rouge_types == ["rougeL"]
    assert list(scorer._tokenizer.tokenize("ज़िले में, Drops!")) == tokenize("ज़िले में, Drops!")
    hindi = "भारत की राजधानी नई दिल्ली है।"
    assert scorer.score(hindi, hindi)["rougeL"].fmeasure == 1.0
