"""Reference-based lexical metrics for one answer: EM, token F1, ROUGE-L, chrF and chrF++.

Every metric takes `(prediction, references, language)` and returns the best score over the
references, so a question with several gold answers is scored against the closest one.
An empty prediction scores 0.0 (a model that says nothing gets no credit); an empty reference
list, or a blank reference, is a data error and raises `ValueError`.

- `exact_match`, `token_f1`: SQuAD v1.1 definitions on `normalize_answer` output; equal to the
  official script on ASCII English, Unicode-aware elsewhere. Scale 0..1.
- `rouge_l`: LCS F-measure on `parakh.text.tokenize` words; equal to rouge-score's `rougeL`
  (no stemming) on ASCII English, and unlike it, non-zero on Indic text. Scale 0..1.
- `ascii_rouge`: rouge-score's default `rougeL` reproduced for comparison with papers that used
  it: lower-case, every character outside [a-z0-9] becomes a space, so text in any other
  script (Devanagari, Tamil, accented Latin letters) has no tokens and scores 0. Scale 0..1.
- `chrf`, `chrf_pp`: sacrebleu's sentence chrF (char n=6, beta=2) and chrF++ (plus word
  bigrams), on canonical Unicode (NFC), on sacrebleu's 0..100 scale.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from sacrebleu.metrics import CHRF

from parakh.text.normalize import canonical_text, normalize_answer
from parakh.text.tokenize import tokenize

_CHRF = CHRF()
_CHRF_PP = CHRF(word_order=2)


def check_references(references: Sequence[str]) -> None:
    """Raise ValueError unless `references` is a non-empty sequence of non-blank strings."""
    if isinstance(references, str):
        raise ValueError("references must be a sequence of strings, got a single string")
    if len(references) == 0:
        raise ValueError("references is empty: a reference metric needs at least one reference")
    for i, reference in enumerate(references):
        if not isinstance(reference, str):
            raise ValueError(f"reference {i} is {type(reference).__name__}, expected str")
        if not reference.strip():
            raise ValueError(f"reference {i} is blank")


def _is_blank(prediction: str) -> bool:
    return not prediction.strip()


def exact_match(prediction: str, references: Sequence[str], language: str | None) -> float:
    """1.0 if the normalised prediction equals a normalised reference, else 0.0."""
    check_references(references)
    if _is_blank(prediction):
        return 0.0
    normalized = normalize_answer(prediction, language)
    scores = []
    for ref in references:
        reference = normalize_answer(ref, language)
        if not normalized.strip() and not reference.strip():
            scores.append(_tokenless(prediction, ref))
        else:
            scores.append(float(normalized == reference))
    return max(scores)


def _f1(prediction_tokens: list[str], reference_tokens: list[str]) -> float:
    common = Counter(prediction_tokens) & Counter(reference_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return 0.0
    precision = num_same / len(prediction_tokens)
    recall = num_same / len(reference_tokens)
    return (2 * precision * recall) / (precision + recall)


def _tokenless(prediction: str, reference: str) -> float:
    """Texts with no token on either side (only emoji or punctuation, which normalisation
    drops): 1.0 when they are the same text, else 0.0, as exact match and chrF would say."""
    return float(canonical_text(prediction).strip() == canonical_text(reference).strip())


def token_f1(prediction: str, references: Sequence[str], language: str | None) -> float:
    """SQuAD v1.1 bag-of-tokens F1 on whitespace tokens of `normalize_answer` output."""
    check_references(references)
    if _is_blank(prediction):
        return 0.0
    prediction_tokens = normalize_answer(prediction, language).split()
    scores = []
    for ref in references:
        reference_tokens = normalize_answer(ref, language).split()
        if not prediction_tokens and not reference_tokens:
            scores.append(_tokenless(prediction, ref))
        else:
            scores.append(_f1(prediction_tokens, reference_tokens))
    return max(scores)


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
    # Same arithmetic as rouge_score.rouge_scorer._score_lcs and scoring.fmeasure.
    if not prediction_tokens or not reference_tokens:
        return 0.0
    lcs = _lcs_length(reference_tokens, prediction_tokens)
    precision = lcs / len(prediction_tokens)
    recall = lcs / len(reference_tokens)
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def rouge_l(prediction: str, references: Sequence[str], language: str | None) -> float:
    """ROUGE-L F-measure (longest common subsequence of words), no stemming.

    `language` is accepted for a uniform signature; the tokenizer is script-aware already.
    On non-ASCII Latin text ("Beyoncé") we keep accented letters, which rouge-score deletes.
    """
    check_references(references)
    if _is_blank(prediction):
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


_NON_ASCII_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")


def ascii_tokens(text: str) -> list[str]:
    """rouge-score's default tokenizer (no stemmer): lower-case, keep runs of [a-z0-9]."""
    return [t for t in _NON_ASCII_ALPHANUMERIC.sub(" ", text.lower()).split() if t]


def ascii_rouge(prediction: str, references: Sequence[str], language: str | None) -> float:
    """ROUGE-L F-measure as rouge-score computes it by default (`RougeScorer(["rougeL"])`).

    A compatibility metric: identical Hindi strings score 0 because the tokenizer keeps only
    [a-z0-9]. Report it beside `rouge_l` to show why published Indic ROUGE-L is near zero;
    do not rank models on it for non-Latin text. `language` is accepted and ignored.
    """
    check_references(references)
    if _is_blank(prediction):
        return 0.0
    prediction_tokens = ascii_tokens(prediction)
    return max(_lcs_fmeasure(prediction_tokens, ascii_tokens(ref)) for ref in references)


def chrf(prediction: str, references: Sequence[str], language: str | None) -> float:
    """sacrebleu sentence chrF (0..100), best reference; texts put in canonical form first."""
    check_references(references)
    if _is_blank(prediction):
        return 0.0
    hypothesis = canonical_text(prediction)
    return max(_CHRF.sentence_score(hypothesis, [canonical_text(ref)]).score for ref in references)


def chrf_pp(prediction: str, references: Sequence[str], language: str | None) -> float:
    """sacrebleu sentence chrF++ (chrF plus word uni- and bigrams, 0..100), best reference."""
    check_references(references)
    if _is_blank(prediction):
        return 0.0
    hypothesis = canonical_text(prediction)
    return max(
        _CHRF_PP.sentence_score(hypothesis, [canonical_text(ref)]).score for ref in references
    )
