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
from types import SimpleNamespace
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


def best_score(prediction: str, references: Sequence[str], score: Callable[[str], float]) -> float:
    """The best `score(reference)` after `check_references`; 0.0 for a blank prediction."""
    check_references(references)
    if not prediction.strip():
        return 0.0
    return max(score(ref) for ref in references)


def _tokenless(prediction: str, reference: str) -> float:
    """Texts with no token on either side (only emoji or punctuation, which normalisation
    drops): 1.0 when they are the same text, else 0.0, as exact match and chrF would say."""
    return float(canonical_text(prediction).strip() == canonical_text(reference).strip())


def exact_match(prediction: str, references: Sequence[str], language: str | None) -> float:
    """1.0 if the normalised prediction equals a normalised reference, else 0.0."""

    def score(ref: str) -> float:
        normalized = normalize_answer(prediction, language)
        reference = normalize_answer(ref, language)
        if not normalized.strip() and not reference.strip():
            return _tokenless(prediction, ref)
        return float(normalized == reference)

    return best_score(prediction, references, score)


def token_f1(prediction: str, references: Sequence[str], language: str | None) -> float:
    """SQuAD v1.1 bag-of-tokens F1 on whitespace tokens of `normalize_answer` output."""

    def score(ref: str) -> float:
        prediction_tokens = normalize_answer(prediction, language).split()
        reference_tokens = normalize_answer(ref, language).split()
        if not prediction_tokens and not reference_tokens:
            return _tokenless(prediction, ref)
        num_same = sum((Counter(prediction_tokens) & Counter(reference_tokens)).values())
        if num_same == 0:
            return 0.0
        precision = num_same / len(prediction_tokens)
        recall = num_same / len(reference_tokens)
        return (2 * precision * recall) / (precision + recall)

    return best_score(prediction, references, score)


@lru_cache(maxsize=256)
def _words(text: str) -> tuple[str, ...]:
    # `rouge_l` asks for a text's words to spot a tokenless pair, then rouge-score asks again
    # (the prediction once per reference): tokenized once instead.
    return tuple(tokenize(text))


@lru_cache(maxsize=2)
def rouge_l_scorer(tokenize: Callable[[str], Sequence[str]] = _words) -> RougeScorer:
    """rouge-score's `RougeScorer(["rougeL"])` fed by `parakh.text.tokenize` (no stemming), or
    by `tokenize`.

    Built on first use: importing rouge-score imports nltk, which takes a second or more.
    """
    from rouge_score.rouge_scorer import RougeScorer

    # rouge-score takes any object with a `tokenize(text)` method as its tokenizer
    return RougeScorer(["rougeL"], tokenizer=SimpleNamespace(tokenize=tokenize))


def _rouge_l_fmeasure(scorer: RougeScorer, prediction: str, reference: str) -> float:
    # rouge-score's score(target, prediction): the reference is the target.
    return float(scorer.score(reference, prediction)["rougeL"].fmeasure)


def rouge_l(prediction: str, references: Sequence[str], language: str | None) -> float:
    """ROUGE-L F-measure (longest common subsequence of words), no stemming.

    rouge-score's own scorer on `parakh.text.tokenize` words (`rouge_l_scorer`).
    `language` is accepted for a uniform signature; the tokenizer is script-aware already.
    On non-ASCII Latin text ("Beyoncé") we keep accented letters, which rouge-score deletes.
    """

    def score(ref: str) -> float:
        if not _words(prediction) and not _words(ref):
            return _tokenless(prediction, ref)
        return _rouge_l_fmeasure(rouge_l_scorer(), prediction, ref)

    return best_score(prediction, references, score)


_NON_ASCII_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")


def ascii_tokens(text: str) -> list[str]:
    """rouge-score's default tokenizer (no stemmer): lower-case, keep runs of [a-z0-9]."""
    return [t for t in _NON_ASCII_ALPHANUMERIC.sub(" ", text.lower()).split() if t]


def ascii_rouge(prediction: str, references: Sequence[str], language: str | None) -> float:
    """ROUGE-L F-measure as rouge-score computes it by default (`RougeScorer(["rougeL"])`):
    its tokenizer keeps only [a-z0-9], so Indic text scores 0 (a compatibility metric).

    Identical Hindi strings score 0. Report it beside `rouge_l` to show what that tokenizer does
    to non-Latin text; do not rank models on it for non-Latin text. `language` is ignored.
    """
    return best_score(
        prediction,
        references,
        lambda ref: _rouge_l_fmeasure(rouge_l_scorer(ascii_tokens), prediction, ref),
    )


def _chrf(scorer: sacrebleu_metrics.CHRF, prediction: str, references: Sequence[str]) -> float:
    hypothesis = canonical_text(prediction)
    return best_score(
        prediction,
        references,
        lambda ref: scorer.sentence_score(hypothesis, [canonical_text(ref)]).score,
    )


def chrf(prediction: str, references: Sequence[str], language: str | None) -> float:
    """sacrebleu sentence chrF (0..100), best reference; texts put in canonical form first."""
    return _chrf(_CHRF, prediction, references)


def chrf_pp(prediction: str, references: Sequence[str], language: str | None) -> float:
    """sacrebleu sentence chrF++ (chrF plus word uni- and bigrams, 0..100), best reference."""
    return _chrf(_CHRF_PP, prediction, references)


# The metrics of this module, as the `parakh.metrics` entry points name them (pyproject.toml).
EXACT_MATCH = Metric("exact_match", "higher", 0.0, 1.0, "mean", fn=exact_match)
TOKEN_F1 = Metric("token_f1", "higher", 0.0, 1.0, "mean", fn=token_f1)
ROUGE_L = Metric("rouge_l", "higher", 0.0, 1.0, "mean", fn=rouge_l)
ASCII_ROUGE = Metric("ascii_rouge", "higher", 0.0, 1.0, "mean", fn=ascii_rouge)
CHRF = Metric("chrf", "higher", 0.0, 100.0, "mean", fn=chrf)
CHRF_PP = Metric("chrf_pp", "higher", 0.0, 100.0, "mean", fn=chrf_pp)
