"""Duplicate ids, duplicate questions and the optional relevance filter.

- The same id twice with the same content: the repeat is dropped (`duplicate_id`). With other
  content it is an error naming both places (strict), or every copy is quarantined (lenient),
  since there is no telling which one is right.
- `dataset.dedupe` (a chatbot-log step, off unless the config asks): the same question text
  twice (exactly, or after Unicode, case, punctuation and space normalisation) with the same
  context passages: the first is kept, the reference answers of the others are merged into it,
  their ids listed in its `meta.duplicate_ids`, and the repeats are dropped (`duplicate_text`).
  A patient who sends the same message twice asked one question; in a benchmark the same
  question over another passage, or with another answer, is another item, so benchmark
  configs leave it off and keep every item.
- A relevance filter (`module:function`, given a `Question`, returns None to keep it or the
  reason to drop it) drops off-topic rows (`not_relevant`).
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from parakh.datasets.rows import Origin, RejectedRow, RowError
from parakh.errors import ConfigError
from parakh.hashing import sha256_obj
from parakh.schema import Question
from parakh.text.normalize import canonical_text, normalize_answer

RelevanceFilter = Callable[[Question], "str | None"]


@dataclass
class Hygiene:
    """Questions kept (with their origins), counts of dropped rows, rows to quarantine."""

    questions: list[Question]
    origins: list[Origin]
    dropped: Counter[str] = field(default_factory=Counter)
    rejected: list[RejectedRow] = field(default_factory=list)
    merged_reference_answers: int = 0


def _content(question: Question) -> dict[str, object]:
    return question.model_dump(mode="json")


def resolve_duplicate_ids(
    questions: list[Question], origins: list[Origin], strict: bool
) -> Hygiene:
    first: dict[str, int] = {}
    conflicted: set[str] = set()
    for i, q in enumerate(questions):
        if q.id not in first:
            first[q.id] = i
            continue
        j = first[q.id]
        if _content(q) != _content(questions[j]):
            if strict:
                raise RowError(
                    origins[i].file,
                    f"duplicate id {q.id!r} with different content "
                    f"(first at {origins[j].describe()})",
                    line=origins[i].line,
                    field=f"{origins[i].where}.id" if origins[i].where else "id",
                    reason="duplicate_id_conflict",
                )
            conflicted.add(q.id)
    result = Hygiene(questions=[], origins=[])
    for i, q in enumerate(questions):
        if q.id in conflicted:
            o = origins[i]
            result.rejected.append(
                RejectedRow(
                    file=o.file,
                    line=o.line,
                    field="id",
                    reason="duplicate_id_conflict",
                    message=f"duplicate id {q.id!r} with different content",
                    record=_content(q),
                )
            )
        elif first[q.id] != i:
            result.dropped["duplicate_id"] += 1
        else:
            result.questions.append(q)
            result.origins.append(origins[i])
    return result


def dedupe_texts(hygiene: Hygiene, mode: str) -> Hygiene:
    """Drop repeated question texts (same language and contexts); merge their references."""
    if mode == "none":
        return hygiene
    kept: dict[tuple[str, str, str], int] = {}
    questions: list[Question] = []
    origins: list[Origin] = []
    for q, origin in zip(hygiene.questions, hygiene.origins, strict=True):
        contexts = sha256_obj([p.text for p in q.contexts]) if q.contexts else ""
        text = canonical_text(q.text) if mode == "exact" else normalize_answer(q.text, None)
        key = (q.language, text, contexts)
        if key not in kept:
            kept[key] = len(questions)
            questions.append(q)
            origins.append(origin)
            continue
        hygiene.dropped["duplicate_text"] += 1
        target = questions[kept[key]]
        extra = [a for a in q.reference_answers if a not in target.reference_answers]
        hygiene.merged_reference_answers += len(extra)
        meta = {**target.meta, "duplicate_ids": [*target.meta.get("duplicate_ids", []), q.id]}
        questions[kept[key]] = target.model_copy(
            update={"reference_answers": [*target.reference_answers, *extra], "meta": meta}
        )
    hygiene.questions, hygiene.origins = questions, origins
    return hygiene


def load_relevance_filter(spec: str) -> RelevanceFilter:
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ConfigError(f"dataset.relevance_filter: expected 'module:function', got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ConfigError(f"dataset.relevance_filter: cannot import {module_name!r}: {e}") from e
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise ConfigError(f"dataset.relevance_filter: {module_name!r} has no function {attr!r}")
    return fn


def apply_relevance_filter(hygiene: Hygiene, keep: RelevanceFilter) -> Hygiene:
    questions, origins = [], []
    for q, origin in zip(hygiene.questions, hygiene.origins, strict=True):
        reason = keep(q)
        if reason is None:
            questions.append(q)
            origins.append(origin)
        else:
            hygiene.dropped["not_relevant"] += 1
    hygiene.questions, hygiene.origins = questions, origins
    return hygiene
