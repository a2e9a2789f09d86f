"""Language labels on questions: script, romanized, code-mixed, matrix language, and their source.

A label the dataset gives is kept (source "dataset"); a language the dataset config declares
fills questions that have none (source "config"); everything else is detected (source
"detected"). A romanized or code-mixed question counts as its matrix language: "surgery ke
baad kitne din" is Hindi. (HEALTH-PARIKSHA's Data paragraph in §3 Methodology decided English
or non-English for such queries by their matrix language; Parakh labels the matrix language
itself.)
"""

from __future__ import annotations

from typing import Any

from parakh.schema import LabelSource, Question
from parakh.text.langid import UNDETERMINED, LanguageLabel, label_language


def _has_given_language(question: Question) -> bool:
    return "language" in question.label_source and question.language != UNDETERMINED


def label_question(
    question: Question, detected: LanguageLabel, config_language: str | None = None
) -> Question:
    """Fill the labels the question lacks from `detected`; record where each label came from."""
    sources: dict[str, LabelSource] = dict(question.label_source)
    updates: dict[str, Any] = {}
    if not _has_given_language(question):
        if config_language is not None:
            updates["language"], sources["language"] = config_language, "config"
        else:
            updates["language"], sources["language"] = detected.language, "detected"
    for name in ("script", "matrix_language"):
        if getattr(question, name) is None:
            updates[name] = getattr(detected, name)
            sources[name] = "detected"
    for name in ("romanized", "code_mixed"):
        if name not in sources:
            updates[name] = getattr(detected, name)
            sources[name] = "detected"
    return question.model_copy(update={**updates, "label_source": sources})


def label_all(
    questions: list[Question], config_language: str | None = None
) -> tuple[list[Question], dict[str, int]]:
    """Label every question; also count where the given language and the detected one differ."""
    hints = [q.language if _has_given_language(q) else None for q in questions]
    labelled: list[Question] = []
    disagreements: dict[str, int] = {}
    for question, hint in zip(questions, hints, strict=True):
        detected = label_language(question.text, hint)
        labelled.append(label_question(question, detected, config_language))
        given = hint or config_language
        if given is not None and detected.language not in (given, UNDETERMINED):
            key = f"{given}->{detected.language}"
            disagreements[key] = disagreements.get(key, 0) + 1
    return labelled, dict(sorted(disagreements.items()))
