"""Where each loaded row came from, and what happens to a bad one (strict: fail; lenient: keep).

Adapters add rows to a `RowSink` inside `sink.guard(place)`: in strict mode a `RowError` (or any
`InputError`) raised in the block propagates and the stage fails naming file, line and field; in
lenient mode the row is recorded as `RejectedRow` with its reason and loading goes on. Every row
added goes through the sink's `check` first (`parakh.datasets.limits`: length limits, control
characters), which may return it cut or raise a `RowError` inside the same guard.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from parakh.errors import InputError
from parakh.schema import HumanJudgment, KBDocument, Question


class RowError(InputError):
    """A bad input row; `reason` is a short code counted in the curation report."""

    def __init__(
        self,
        path: object,
        message: str,
        *,
        line: int | None = None,
        field: str | None = None,
        reason: str = "invalid_value",
    ) -> None:
        super().__init__(path, message, line=line, field=field)
        self.reason = reason
        self.message = message


def map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    """`value` with `fn` applied to every string in it (nested dicts and lists, keys too)."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {map_strings(k, fn): map_strings(v, fn) for k, v in value.items()}
    if isinstance(value, list):
        return [map_strings(v, fn) for v in value]
    return value


def strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(field path, string) of every string in a row or a record's values, dict keys included,
    in field order."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from strings(getattr(value, name), f"{path}.{name}" if path else name)
    elif isinstance(value, dict):
        for key, inner in value.items():
            name = f"{path}.{key}" if path else str(key)
            if isinstance(key, str):
                yield name, key
            yield from strings(inner, name)
    elif isinstance(value, list | tuple):
        for i, inner in enumerate(value):
            yield from strings(inner, f"{path}[{i}]")


def writable(text: str) -> str:
    """`text` with undecodable bytes (kept as lone surrogates) shown as U+FFFD, so it can be
    written as UTF-8."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


@dataclass(frozen=True)
class Origin:
    """A row's place in its source: file, line (or row) and, for nested JSON, a path."""

    file: str
    line: int | None = None
    where: str | None = None

    def describe(self) -> str:
        text = self.file
        if self.line is not None:
            text += f", line {self.line}"
        if self.where is not None:
            text += f", at {self.where}"
        return text


@dataclass(frozen=True)
class FieldPlace:
    """A value's file, line and field, for the records a load reports (rejected or cut rows)."""

    file: str
    line: int | None
    field: str | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RejectedRow(FieldPlace):
    """A row left out in lenient mode: where it was, which field, why, and the raw record."""

    reason: str
    message: str
    record: Any


@dataclass
class LoadedDataset:
    """What an adapter produced: canonical rows, where each question came from, rejected rows."""

    questions: list[Question]
    documents: list[KBDocument] = field(default_factory=list)
    judgments: list[HumanJudgment] = field(default_factory=list)
    origins: list[Origin] = field(default_factory=list)
    rejected: list[RejectedRow] = field(default_factory=list)
    cut: list[dict[str, Any]] = field(default_factory=list)  # texts cut to their length limit


RowCheck = Callable[[Any, Origin], Any]  # (row, origin) -> the row, possibly cut; or raises


class RowSink:
    """Collects an adapter's rows; `guard` decides between failing and quarantining."""

    def __init__(
        self, strict: bool = True, root: Path | None = None, check: RowCheck | None = None
    ) -> None:
        self.strict = strict
        self.root = root
        self.check: RowCheck = check or (lambda row, origin: row)
        self.dataset = LoadedDataset(questions=[])

    def add_question(self, question: Question, origin: Origin) -> None:
        self.dataset.questions.append(self.check(question, origin))
        self.dataset.origins.append(origin)

    def add_document(self, document: KBDocument, origin: Origin | None = None) -> None:
        self.dataset.documents.append(self.check(document, origin or Origin(document.source)))

    def add_judgment(self, judgment: HumanJudgment, origin: Origin | None = None) -> None:
        self.dataset.judgments.append(self.check(judgment, origin or Origin("(judgments)")))

    def reject(self, error: InputError, record: Any) -> None:
        message = error.message if isinstance(error, RowError) else str(error).split(": ", 1)[-1]
        reason = error.reason if isinstance(error, RowError) else "invalid_value"
        if reason == "too_long":  # the quarantine file keeps a clip, not megabytes
            record = map_strings(record, _clip)
        self.dataset.rejected.append(
            RejectedRow(
                file=error.path,
                line=error.line,
                field=error.field,
                reason=reason,
                message=writable(message),
                record=map_strings(record, writable),
            )
        )

    @contextlib.contextmanager
    def guard(self, record: Any) -> Iterator[None]:
        """Run one row's parsing; a bad row fails the load (strict) or is quarantined."""
        try:
            yield
        except InputError as error:
            if self.strict:
                raise
            self.reject(error, record)


QUARANTINE_CLIP = 1_000  # characters of a too-long value kept in the quarantine file


def _clip(text: str) -> str:
    """`text` cut to QUARANTINE_CLIP characters, saying how long it was."""
    if len(text) <= QUARANTINE_CLIP:
        return text
    return f"{text[:QUARANTINE_CLIP]}... [{len(text):,} characters in all]"
