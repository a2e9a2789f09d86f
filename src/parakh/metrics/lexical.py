"""Reference-based lexical metrics for one answer: EM, token F1, ROUGE-L, chrF and chrF++.

Every metric takes `(prediction, references, language)` and returns the best score over the
references, so a question with several gold answers is scored against the closest one.
An empty prediction scores 0.0 (a model that says nothing gets no credit); an empty reference
list, or a blank reference, is a data error and raises `ValueError`.

- `exact_match`, `token_f1`: SQuAD v1.1 definitions on `normalize_answer` output; equal to the
  official script on ASCII English, Unicode-aware elsewhere. Scale 0..1.
- `rouge_l`: rouge-score's own `rougeL` scorer (no stemming) with `parakh.text.tokenize`
  plugged in as its tokenizer: equal to rouge-score's default on ASCII English, and unlike
  it, 1 on identical text in any script. Scale 0..1.
- `ascii_rouge`: rouge-score's default `rougeL`, for comparison with papers that used it: its
  tokenizer lower-cases and turns every character outside [a-z0-9] into a space, so text in
  any other script (Devanagari, Tamil, accented Latin letters) has no tokens and scores 0.
  Scale 0..1. The same scorer as `rouge_l`; only the tokenizer differs.
- `chrf`, `chrf_pp`: sacrebleu's sentence chrF (char n=6, beta=2) and chrF++ (plus word
  bigrams), on canonical Unicode (NFC), on sacrebleu's 0..100 scale.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from sacrebleu import metrics as sacrebleu_metrics

from parakh.metrics.specs import Metric
from parakh.text.normalize import canonical_text, normalize_answer
from parakh.text.tokenize import tokenize

if TYPE_CHECKING:
    from rouge_score.rouge_scorer import RougeScorer

_CHRF = sacrebleu_metrics.CHRF()
_CHRF_PP = sacrebleu_metrics.CHRF(word_order=2)


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


class _Tokenizer:
    """rouge-score's tokenizer interface (an object with `tokenize(text)`) over a function."""

    def __init__(self, words: Callable[[str], Sequence[str]]) -> None:
        self.tokenize = words


@lru_cache(maxsize=256)
def _words(text: str) -> tuple[str, ...]:
    # `rouge_l` asks for a text's words to spot a tokenless pair, then rouge-score asks again
    # (the prediction once per reference): tokenized once instead.
    return tuple(tokenize(text))


@lru_cache(maxsize=1)
def rouge_l_scorer() -> RougeScorer:
    """rouge-score's `RougeScorer(["rougeL"])` fed by `parakh.text.tokenize` (no stemming).

    Built on first use: importing rouge-score imports nltk, which takes a second or more.
    """
    from rouge_score.rouge_scorer import RougeScorer

    return RougeScorer(["rougeL"], tokenizer=_Tokenizer(_words))


@lru_cache(maxsize=1)
def _ascii_rouge_scorer() -> RougeScorer:
    from rouge_score.rouge_scorer import RougeScorer

    return RougeScorer(["rougeL"], tokenizer=_Tokenizer(ascii_tokens))


def _rouge_l_fmeasure(scorer: RougeScorer, prediction: str, reference: str) -> float:
    # rouge-score's score(target, prediction): the reference is the target.
    return float(scorer.score(reference, prediction)["rougeL"].fmeasure)


def rouge_l(prediction: str, references: Sequence[str], language: str | None) -> float:
    """ROUGE-L F-measure (longest common subsequence of words), no stemming.

    rouge-score's own scorer on `parakh.text.tokenize` words (`rouge_l_scorer`).
    `language` is accepted for a uniform signature; the tokenizer is script-aware already.
    On non-ASCII Latin text ("Beyoncé") we keep accented letters, which rouge-score deletes.
    """
    check_references(references)
    if _is_blank(prediction):
        return 0.0
    scorer = rouge_l_scorer()
    tokenless_prediction = not _words(prediction)
    scores = []
    for ref in references:
        if tokenless_prediction and not _words(ref):
            scores.append(_tokenless(prediction, ref))
        else:
            scores.append(_rouge_l_fmeasure(scorer, prediction, ref))
    return max(scores)


_NON_ASCII_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")


def ascii_tokens(text: str) -> list[str]:
    """rouge-score's default tokenizer (no stemmer): lower-case, keep runs of [a-z0-9]."""
    return [t for t in _NON_ASCII_ALPHANUMERIC.sub(" ", text.lower()).split() if t]


def ascii_rouge(prediction: str, references: Sequence[str], language: str | None) -> float:
    """ROUGE-L F-measure as rouge-score computes it by default (`RougeScorer(["rougeL"])`):
    its tokenizer keeps only [a-z0-9], so Indic text scores 0 (a compatibility metric).

    Identical Hindi strings score 0. Report it beside `rouge_l` to show what that tokenizer does to non-Latin text;
    do not rank models on it for non-Latin text. `language` is accepted and ignored.
    """
    check_references(references)
    if _is_blank(prediction):
        return 0.0
    scorer = _ascii_rouge_scorer()
    return max(_rouge_l_fmeasure(scorer, prediction, ref) for ref in references)


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


# The metrics of this module, as the `parakh.metrics` entry points name them (pyproject.toml).
EXACT_MATCH = Metric("exact_match", "higher", 0.0, 1.0, "mean", fn=exact_match)
TOKEN_F1 = Metric("token_f1", "higher", 0.0, 1.0, "mean", fn=token_f1)
ROUGE_L = Metric("rouge_l", "higher", 0.0, 1.0, "mean", fn=rouge_l)
ASCII_ROUGE = Metric("ascii_rouge", "higher", 0.0, 1.0, "mean", fn=ascii_rouge)
CHRF = Metric("chrf", "higher", 0.0, 100.0, "mean", fn=chrf)
CHRF_PP = Metric("chrf_pp", "higher", 0.0, 100.0, "mean", fn=chrf_pp)
