"""Response-language match: is the answer in the language the user was to be answered in?

The answer is labelled with `parakh.text.langid.label_language`, with the requested language as
its hint (the hint only breaks near-ties among languages one script allows and never overrides
clear evidence). The score is 1.0 when the answer's matrix language is the requested one,
whatever the script: romanized Hindi answers a Hindi request, and a Hinglish answer with English
grammar answers an English one. It is 0.0 when the answer is clearly in another language: in a
script the requested language is not written in, or labelled another language of the same
script with confidence of at least `CONFIDENT`. Short texts in a shared script are often
labelled a neighbour with low confidence (a two-word Hindi answer as Sanskrit or Marathi at
0.3-0.45 on IndicQuest answers, where real Marathi or Nepali answers get a median of 0.85 or
more); such a label is no evidence of a wrong language and counts as a match. An answer with no
letters (digits only) has no language and scores 0.0. The references are not used.
"""

from __future__ import annotations

from collections.abc import Sequence

from parakh.metrics.specs import Metric
from parakh.text.langid import UNDETERMINED, LanguageLabel, label_language
from parakh.text.languages import LANGUAGES, normalize_language

CONFIDENT = 0.5


def response_language(prediction: str, requested: str | None = None) -> str:
    """The matrix language of an answer (`und` when it has no letters)."""
    return label_language(prediction, hint=requested).language


def is_requested_language(label: LanguageLabel, requested: str) -> bool:
    """True unless the label clearly names another language (see the module docstring)."""
    if label.language == requested:
        return True
    if label.language == UNDETERMINED:
        return False
    same_script = requested in LANGUAGES and label.script in LANGUAGES[requested].scripts
    return same_script and not label.romanized and label.confidence < CONFIDENT


def language_match(prediction: str, references: Sequence[str], language: str | None) -> float:
    """1.0 if `prediction` is in `language` (the requested response language), else 0.0."""
    if language is None:
        raise ValueError("language_match needs the requested response language")
    requested = normalize_language(language)
    if requested is None:
        raise ValueError(f"unknown language code {language!r}")
    if not prediction.strip():
        return 0.0
    return float(is_requested_language(label_language(prediction, hint=requested), requested))


LANGUAGE_MATCH = Metric(
    "language_match", "higher", 0.0, 1.0, "mean", fn=language_match, needs_reference=False
)
