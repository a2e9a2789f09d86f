"""Reading source files row by row, keeping the place of every value (file, line, field).

Bytes are decoded with `surrogateescape`, so one invalid UTF-8 byte fails (or quarantines) only
its own row, and the error names the field that holds it instead of stopping at a byte offset.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from parakh.datasets.rows import Origin, RowError, strings
from parakh.errors import did_you_mean, first_field_error
from parakh.text.languages import LANGUAGE_ALIASES, LANGUAGES, normalize_language

_BAD_BYTE = re.compile("[\udc80-\udcff]")
# (message, reason) -> the error to raise, already knowing file, line and field
ErrorFactory = Callable[[str, str], RowError]
M = TypeVar("M", bound=BaseModel)


def first_bad_byte(text: str) -> tuple[int, str] | None:
    """(index, `0xNN`) of the first undecodable byte of a surrogateescape-decoded string."""
    match = _BAD_BYTE.search(text)
    return (match.start(), f"0x{ord(match.group()) - 0xDC00:02x}") if match else None


def decode(path: Path) -> str:
    """The file's text without the byte-order mark Windows tools put first; undecodable bytes
    stay as lone surrogates for `Record` to report."""
    if not path.is_file():
        raise RowError(path, "file not found", reason="missing_file")
    return path.read_bytes().decode("utf-8", errors="surrogateescape").removeprefix("\ufeff")


def source_files(root: Path, names: Iterable[str] | None, pattern: str, what: str) -> list[Path]:
    """The files an adapter reads: `root` itself when it is a file, else the `names` under it,
    else every `pattern` match under it (sorted); none at all is a RowError: no `what` files."""
    if root.is_file():
        paths = [root]
    elif names is not None:
        paths = [root / name for name in names]
    else:
        paths = sorted(root.glob(pattern))
    if not paths:
        raise RowError(root, f"no {what} files found", reason="missing_file")
    return paths


@dataclass(frozen=True)
class Record:
    """One source row: its values and where it is. Accessors raise `RowError` naming the field."""

    path: Path
    line: int | None
    values: dict[str, Any]
    where: str | None = None

    @property
    def origin(self) -> Origin:
        return Origin(self.path.name, self.line, self.where)

    def error(self, field: str | None, message: str, reason: str = "invalid_value") -> RowError:
        name = self.where if field is None else f"{self.where}.{field}" if self.where else field
        return RowError(self.path, message, line=self.line, field=name, reason=reason)

    def check_utf8(self) -> None:
        for field, value in strings(self.values):
            if bad := first_bad_byte(value):
                raise self.error(field, f"invalid UTF-8 (byte {bad[1]})", "invalid_utf8")

    def raw(self, field: str) -> Any:
        if field not in self.values or self.values[field] is None:
            raise self.error(field, "missing required field", "missing_field")
        return self.values[field]

    def text(self, field: str, *, strip: bool = True) -> str:
        """A required, non-blank string value."""
        value = self.raw(field)
        if not isinstance(value, str):
            # never str(value): `id: true` would become the id 'True'
            raise self.error(field, f"expected text, got {type(value).__name__} {value!r:.80}")
        if not value.strip():
            raise self.error(field, "text is empty", "empty_text")
        return value.strip() if strip else value

    def optional_text(self, field: str) -> str | None:
        value = self.values.get(field)
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        return self.text(field)

    def language(self, field: str) -> str:
        return parse_language(self.raw(field), self.error_factory(field))

    def date(self, field: str) -> date | None:
        """A date from `YYYY-MM-DD` or an ISO date-time (`2024-01-08T10:15:00`, `... 10:15`)."""
        value = self.values.get(field)
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, str):
            with contextlib.suppress(ValueError):
                return date.fromisoformat(value.strip())
            with contextlib.suppress(ValueError):
                return datetime.fromisoformat(value.strip().replace("Z", "+00:00")).date()
        message = f"date does not parse: {value!r} (expected YYYY-MM-DD or ISO date-time)"
        raise self.error(field, message, "bad_date")

    def integer(self, field: str) -> int:
        value = self.raw(field)
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise self.error(field, f"expected an integer, got {value!r}")
        try:
            return int(value)
        except ValueError:
            raise self.error(field, f"expected an integer, got {value!r}") from None

    def error_factory(self, field: str) -> ErrorFactory:
        return lambda message, reason: self.error(field, message, reason)

    def build(self, model: type[M], fields: dict[str, Any]) -> M:
        """Validate a canonical row built from this record, naming the field on failure."""
        try:
            return model.model_validate(fields)
        except ValidationError as e:
            field, message = first_field_error(e)
            raise self.error(field or None, message) from e


def parse_language(value: Any, error: ErrorFactory) -> str:
    """Our code for a language code or name ("hi", "Hindi", "hin"); unknown ones are errors."""
    code = normalize_language(value) if isinstance(value, str) else None
    if code is None:
        options = sorted(LANGUAGES)
        hint = did_you_mean(  # names and ISO 639-3 codes too: "hn" is nearer "hin" than "zh"
            str(value).lower(), sorted(LANGUAGE_ALIASES), cutoff=0.6, candidates=5,
            shown=lambda alias: repr(LANGUAGE_ALIASES[alias]),
        )  # fmt: skip
        raise error(
            f"unknown language code {value!r}.{hint} Available: {', '.join(options)}",
            "unknown_language",
        )
    return code


@dataclass(frozen=True)
class Line:
    """One raw line of a JSONL file, parsed inside the adapter's guard."""

    path: Path
    line: int
    text: str

    def parse(self) -> Record:
        obj = parse_json(self.path, self.text, self.line)
        if not isinstance(obj, dict):
            raise RowError(
                self.path,
                f"expected a JSON object, got {type(obj).__name__}",
                line=self.line,
                field="(row)",
                reason="invalid_json",
            )
        record = Record(self.path, self.line, obj)
        record.check_utf8()
        return record


_KEY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:')


def parse_json(path: Path, text: str, line: int | None) -> Any:
    """`text` (a JSONL line, or a whole JSON document when `line` is None) parsed; a syntax
    error names `line` (else the error's own) and the field being written when it broke: the
    last JSON key before it."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        keys = _KEY.findall(text[: e.pos])
        raise RowError(
            path,
            f"not valid JSON ({e.msg} at column {e.colno})",
            line=e.lineno if line is None else line,
            field=keys[-1] if keys else "(row)",
            reason="invalid_json",
        ) from e


def jsonl_lines(path: Path) -> Iterator[Line]:
    """Non-blank lines of a JSONL file, numbered from 1."""
    for lineno, text in enumerate(decode(path).split("\n"), start=1):
        if text.strip():
            yield Line(path, lineno, text.rstrip("\r"))


@dataclass(frozen=True)
class CsvRow:
    """One raw CSV row, checked against the header inside the adapter's guard."""

    path: Path
    line: int
    header: tuple[str, ...]
    cells: tuple[str, ...]

    @property
    def text(self) -> str:
        out = io.StringIO()
        csv.writer(out).writerow(self.cells)
        return out.getvalue().rstrip("\r\n")

    def parse(self) -> Record:
        record = Record(self.path, self.line, dict(zip(self.header, self.cells, strict=False)))
        n, expected = len(self.cells), len(self.header)
        if n < expected:
            raise record.error(
                self.header[n], f"row has {n} cells, header has {expected}", "missing_field"
            )
        if n > expected:
            raise record.error("(row)", f"row has {n} cells, header has {expected}")
        record.check_utf8()
        return record


def file_rows(path: Path, required: Sequence[str]) -> Iterator[CsvRow | Line]:
    """The raw rows of a .csv file (with a header holding the `required` columns) or a .jsonl
    (.ndjson) file, by its suffix; another suffix is a RowError."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return csv_rows(path, required)
    if suffix in (".jsonl", ".ndjson"):
        return jsonl_lines(path)
    raise RowError(path, "expected a .csv or .jsonl file", reason="invalid_value")


def file_records(path: Path, required: Sequence[str]) -> Iterator[Record]:
    """`file_rows`, each parsed."""
    return (row.parse() for row in file_rows(path, required))


def csv_rows(path: Path, required: Sequence[str], text: str | None = None) -> Iterator[CsvRow]:
    """Rows of a CSV file with a header (`text`, else read from `path`); a missing required
    column fails the whole file."""
    text = decode(path) if text is None else text.removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = tuple(name.strip() for name in next(reader))
    except StopIteration:
        raise RowError(
            path, "file is empty (no header row)", line=1, reason="missing_field"
        ) from None
    for name in required:
        if name not in header:
            raise RowError(
                path,
                f"missing column (header has {', '.join(header)})",
                line=1,
                field=name,
                reason="missing_field",
            )
    previous = reader.line_num
    for cells in reader:
        start, previous = previous + 1, reader.line_num
        if any(cell.strip() for cell in cells):
            yield CsvRow(path, start, header, tuple(cells))
