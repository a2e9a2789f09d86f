"""What text a canonical row may hold: each field within its length limit, no control characters.

Checked as an adapter adds a row (`RowSink`), whatever adapter read it, so a 5 MB question is
stopped in milliseconds, before redaction, language detection or embedding spend minutes on it,
and a NUL never reaches data/processed/. A violation is a `RowError` naming file, line and the
canonical field (`text`, `reference_answers[0]`, `contexts[2].text`, `meta.focus`): strict curate
fails on it, lenient curate quarantines the row. With `over_length: truncate` a main text (question,
reference answer, context passage, KB document, judged answer) is cut to its limit instead, and
the cut is recorded; ids and other values over their limit are always errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from pydantic import BaseModel

from parakh.config.dataset import LengthLimits
from parakh.datasets.rows import FieldPlace, Origin, RowError, strings
from parakh.schema import HumanJudgment, KBDocument, Passage, Question

Row = TypeVar("Row", Question, KBDocument, HumanJudgment)
OverLength = Literal["error", "truncate"]

# C0 controls except the whitespace ones (tab, line feed, vertical tab, form feed, carriage
# return): a NUL or an escape sequence in a question would travel into prompts, judge inputs and
# reports. A form feed is a page break in text extracted from PDFs, whitespace to every reader.
_CONTROL = re.compile("[\x00-\x08\x0e-\x1f]")
_CONTROL_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "BACKSPACE", 0x1B: "ESC"}

# The limit each canonical field is held to (`[]`: any index); every other string is `other`.
_KINDS: dict[type[BaseModel], dict[str, str]] = {
    Question: {
        "id": "id",
        "text": "question",
        "reference_answers[]": "reference_answer",
        "contexts[].id": "id",
        "contexts[].text": "context",
    },
    KBDocument: {"id": "id", "text": "kb_document"},
    HumanJudgment: {
        "id": "id",
        "question_id": "id",
        "answer_id": "id",
        "answer": "judged_answer",
    },
}
_LABELS = {
    "id": "id",
    "question": "question text",
    "reference_answer": "reference answer",
    "context": "context passage",
    "kb_document": "KB document text",
    "judged_answer": "judged answer",
    "other": "text",
}
_TRUNCATABLE = frozenset(
    {"question", "reference_answer", "context", "kb_document", "judged_answer"}
)
_INDEX = re.compile(r"\[\d+\]")


@dataclass(frozen=True)
class CutText(FieldPlace):
    """A text cut to its limit (`over_length: truncate`): where it was, and how long."""

    id: str
    chars: int
    limit: int


@dataclass
class TextRules:
    """The limits in force, and the texts cut so far under them."""

    limits: LengthLimits = field(default_factory=LengthLimits)
    over_length: OverLength = "error"
    cuts: list[CutText] = field(default_factory=list)

    def apply(self, row: Row, origin: Origin) -> Row:
        """`row` if every text is within its limit and free of control characters, else the row
        with its main texts cut (truncate) or a `RowError` naming the first offending field."""
        kinds = _KINDS[type(row)]
        over: list[tuple[str, int, int]] = []  # (field, length, limit) of texts to cut
        for path, value in strings(row):
            kind = kinds.get(_INDEX.sub("[]", path), "other")
            limit = getattr(self.limits, kind)
            if len(value) > limit:
                if self.over_length != "truncate" or kind not in _TRUNCATABLE:
                    raise _error(origin, path, _too_long(kind, len(value), limit), "too_long")
                over.append((path, len(value), limit))
            match = _CONTROL.search(value[:limit])  # a cut text: the part kept
            if match:
                raise _error(origin, path, _control(match), "control_character")
        for path, chars, limit in over:
            row = _cut(row, path, limit)
            self.cuts.append(CutText(origin.file, origin.line, path, row.id, chars, limit))
        if over and isinstance(row, Question):
            truncated = {**row.meta.get("truncated", {}), **{p: n for p, n, _ in over}}
            row = row.model_copy(update={"meta": {**row.meta, "truncated": truncated}})
        return row


def _cut(row: Row, path: str, limit: int) -> Row:
    """`row` with the main text at `path` cut to `limit` characters."""
    if isinstance(row, Question) and path.startswith("reference_answers["):
        i = int(path[len("reference_answers[") : -1])
        answers = list(row.reference_answers)
        answers[i] = answers[i][:limit]
        return row.model_copy(update={"reference_answers": answers})
    if isinstance(row, Question) and path.startswith("contexts["):
        i = int(path[len("contexts[") : path.index("]")])
        contexts: list[Passage] = list(row.contexts)
        contexts[i] = contexts[i].model_copy(update={"text": contexts[i].text[:limit]})
        return row.model_copy(update={"contexts": contexts})
    name = path  # "text" (question, KB document) or "answer" (judged answer)
    return row.model_copy(update={name: getattr(row, name)[:limit]})


def _too_long(kind: str, chars: int, limit: int) -> str:
    fix = f"shorten it or raise dataset.max_chars.{kind}"
    if kind in _TRUNCATABLE:
        fix += ", or set dataset.over_length=truncate to cut it"
    return (
        f"{_LABELS[kind]} is {chars:,} characters, over the limit of {limit:,} "
        f"(dataset.max_chars.{kind}); {fix}"
    )


def _control(match: re.Match[str]) -> str:
    code = ord(match.group())
    name = _CONTROL_NAMES.get(code, "control character")
    return (
        f"holds U+{code:04X} ({name}) at character {match.start() + 1:,}: control characters "
        "other than whitespace (tab, newline, form feed) are not text; remove it from the source"
    )


def _error(origin: Origin, path: str, message: str, reason: str) -> RowError:
    if origin.where:
        message = f"{message} (row at {origin.where})"
    return RowError(origin.file, message, line=origin.line, field=path, reason=reason)
