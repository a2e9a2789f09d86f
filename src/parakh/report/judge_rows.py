"""Judge rows read as columns: validated once per file by schema, kept compact, rebuilt as
`Judgment` objects only when a reader asks for them.

A judge file is parsed by pyarrow against the `Judgment` schema (a C++ reader, no object per
row) and checked as a whole: known fields only, required ones present, a status the schema
allows, no null where the schema has a default instead. A file the fast path cannot vouch for
(a type pydantic would coerce or refuse, a line it would read differently, jury votes) is read
the old way, row by row through pydantic, so every error still names its file, line and field,
and every file gives the same rows either way. The statistics read `parakh.report.columns`
built from these tables; the report pages that show rows get `Judgment` objects, built per
model when asked for (`JudgmentFiles`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pa_json

from parakh.io import iter_json_objects, validate_row
from parakh.schema import Judgment

FIELDS = list(Judgment.model_fields)
STATUSES = ("ok", "invalid", "error", "skipped")
_TEXT = pa.string()
_LIST = pa.list_(pa.string())
_TYPES: dict[str, pa.DataType] = {
    "question_id": _TEXT,
    "model": _TEXT,
    "judge": _TEXT,
    "metric": _TEXT,
    "language": _TEXT,
    "categories": _LIST,
    "status": _TEXT,
    "score": pa.float64(),
    "scale_max": pa.float64(),
    "justification": _TEXT,
    "raw_output": _TEXT,
    "reason": _TEXT,
    "label": _TEXT,
    "flags": _LIST,
    "injection_cues": _LIST,
    "translator": _TEXT,
}  # every field but `votes`, whose keys are juror names: read by inference, then checked
_REQUIRED = ("question_id", "model", "judge", "metric", "language", "status")
_NOT_NULL = ("categories", "flags", "injection_cues", "scale_max")  # a default, but not None
_REPEATED = ("question_id", "model", "judge", "metric", "language", "status", "translator", "label")
# the columns the statistics read (parakh.report.columns)
STATS = ("question_id", "model", "translator", "metric", "language", "status", "score")
STATS_COLUMNS = (*STATS, "scale_max", "categories")
_BLANK_INSIDE = re.compile(rb"\n[ \t\r\x0b\x0c]*\n")  # a literal first: a fast scan
_BLANKS = b" \t\r\x0b\x0c"


@dataclass
class JudgeFile:
    """One model's judge rows: an arrow table (read by schema) or, for a file the schema path
    could not vouch for, the validated objects; and each row's line in the file."""

    lines: Sequence[int]
    table: pa.Table | None = None
    rows: list[Judgment] | None = None

    def __len__(self) -> int:
        return len(self.lines)

    def judgments(self) -> list[Judgment]:
        return list(self.rows) if self.rows is not None else _objects(self._table())

    def stats_table(self) -> pa.Table:
        """The columns the statistics read, as plain (not dictionary) arrays."""
        if self.table is None:
            return rows_table(self.rows or [])
        return pa.table([_plain(self.table.column(n)) for n in STATS_COLUMNS], STATS_COLUMNS)

    def _table(self) -> pa.Table:
        assert self.table is not None
        return self.table


def read_judge_file(path: Path) -> JudgeFile:
    """Read a judge JSONL file by schema; the old row-by-row way when the schema path cannot
    give the same rows (then its errors name file, line and field, as they always did)."""
    data = path.read_bytes()
    table = _parsed(data)
    lines = nonblank_lines(data)
    if table is not None and table.num_rows == len(lines):
        compact = _compact(table)
        del table
        pa.default_memory_pool().release_unused()  # the parser's buffers, back to the system
        return JudgeFile(lines=lines, table=compact)
    lines, rows = [], []
    for line, obj in iter_json_objects(path):
        rows.append(validate_row(Judgment, obj, path, line))
        lines.append(line)
    return JudgeFile(lines=lines, rows=rows)


def _parsed(data: bytes) -> pa.Table | None:
    """The file's rows if every one is a row pydantic would accept unchanged, else None."""
    if data.startswith(b"\xef\xbb\xbf"):  # a BOM: json.loads refuses it, arrow would not
        return None
    options = pa_json.ParseOptions(
        explicit_schema=pa.schema(list(_TYPES.items())), unexpected_field_behavior="infer"
    )
    try:
        table = pa_json.read_json(pa.py_buffer(data), parse_options=options)
    except (pa.ArrowInvalid, UnicodeDecodeError):
        return None
    if set(table.column_names) - set(FIELDS):
        return None  # an unknown field: pydantic names it
    if "votes" in table.column_names:
        votes = table.column("votes")
        if votes.null_count or not (pa.types.is_struct(votes.type) and votes.type.num_fields == 0):
            return None  # jury votes (or a null): read them as pydantic does
        table = table.drop_columns(["votes"])
    if any(table.column(n).null_count for n in (*_REQUIRED, *_NOT_NULL)):
        return None  # a field missing or null that pydantic refuses or fills with a default
    for name in ("categories", "flags", "injection_cues"):
        if pc.list_flatten(table.column(name)).null_count:
            return None
    if set(pc.unique(table.column("status")).to_pylist()) - set(STATUSES):
        return None
    return table


def nonblank_lines(data: bytes) -> Sequence[int]:
    """The number of each line holding more than whitespace, which arrow skips too (a line of
    other whitespace fails arrow's parse, and the old reader decides)."""
    end = len(data) - 1 if data.endswith(b"\n") else len(data)  # no line after a final newline
    if not _has_blank_line(data, end):
        return range(1, data.count(b"\n", 0, end) + 2)
    return [i for i, line in enumerate(data[:end].split(b"\n"), start=1) if line.strip()]


def _has_blank_line(data: bytes, end: int) -> bool:
    """Whether a line of `data[:end]` holds only whitespace (the first, a middle or the last)."""
    first = data.find(b"\n", 0, end)
    if not data[: end if first < 0 else first].strip(_BLANKS):
        return True
    last = data.rfind(b"\n", 0, end)
    if last >= 0 and not data[last + 1 : end].strip(_BLANKS):
        return True
    return _BLANK_INSIDE.search(data, 0, end) is not None


def _compact(table: pa.Table) -> pa.Table:
    """Repeated strings stored once (dictionary-encoded): a fraction of the memory."""
    for name in _REPEATED:
        index = table.column_names.index(name)
        table = table.set_column(index, name, pc.dictionary_encode(table.column(name)))
    return table


def _plain(column: pa.ChunkedArray) -> pa.ChunkedArray:
    if pa.types.is_dictionary(column.type):
        return column.cast(column.type.value_type)
    return column


def rows_table(rows: Sequence[Judgment]) -> pa.Table:
    """The statistics' columns of `rows` (objects built in memory: tests, notebooks)."""
    return pa.table(
        {name: pa.array([getattr(r, name) for r in rows], _TYPES[name]) for name in STATS_COLUMNS}
    )


def _objects(table: pa.Table) -> list[Judgment]:
    """The rows as `Judgment` objects, built without validating again: the schema has checked
    every value, and pydantic's own `model_construct` is slower than validation."""
    columns = [
        _values(table.column(n)) if n != "votes" else _fresh_dicts(table.num_rows) for n in FIELDS
    ]
    new, assign = Judgment.__new__, object.__setattr__
    # Every field is set, so one set serves every row (pydantic adds a field's name to it on
    # assignment: already there); a set per row would add 700 bytes to each.
    fields_set = set(FIELDS)
    rows = []
    for values in zip(*columns, strict=True):
        row = new(Judgment)
        assign(row, "__dict__", dict(zip(FIELDS, values, strict=True)))
        assign(row, "__pydantic_fields_set__", fields_set)
        assign(row, "__pydantic_extra__", None)
        assign(row, "__pydantic_private__", None)
        rows.append(row)
    return rows


def _fresh_dicts(n: int) -> list[dict[str, float | None]]:
    return [{} for _ in range(n)]


def _values(column: pa.ChunkedArray) -> list[Any]:
    """A column as Python values, fast: arrow's to_pylist is slow on dictionary and list
    arrays; each row gets its own list (rows are mutable objects)."""
    array = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    if pa.types.is_dictionary(array.type):
        words = array.dictionary.to_pylist() + [None]
        codes = pc.fill_null(array.indices, len(words) - 1).to_numpy(zero_copy_only=False)
        return [words[i] for i in codes.tolist()]
    if pa.types.is_list(array.type) and not array.null_count:
        offsets = array.offsets.to_numpy(zero_copy_only=False).tolist()
        items = array.values.to_pylist()
        return [items[a:b] for a, b in zip(offsets[:-1], offsets[1:], strict=True)]
    return array.to_pylist()


class JudgmentFiles(Mapping[str, list[Judgment]]):
    """Each model's judge rows as `Judgment` objects, built when asked for and not kept: the
    statistics read columns, and a million objects would hold gigabytes."""

    def __init__(self, files: dict[str, JudgeFile]) -> None:
        self.files = files

    def __getitem__(self, model: str) -> list[Judgment]:
        return self.files[model].judgments()

    def __iter__(self) -> Iterator[str]:
        return iter(self.files)

    def __contains__(self, model: object) -> bool:
        return model in self.files

    def __len__(self) -> int:
        return len(self.files)

    def __repr__(self) -> str:
        return f"JudgmentFiles({ {m: len(f) for m, f in self.files.items()} })"
