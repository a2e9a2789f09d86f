"""The row files aggregate reads: judge rows and answers as columns, questions as small views.

pyarrow parses a judge or generations file against the schema (no object per row) and checks
it whole: known fields only, required ones present, a status the schema allows, each value of
its JSON type. A file that fails is bad input, and its first bad line (`first_bad_line`) names
file, line and field. A field left out takes its default; a juror left out of a row's votes
reads as no vote (None), as a juror whose call failed does. Of a generations file only what
aggregate shows is kept (`Answer`); its other fields are checked by name and kind only (the
judge stage validated them whole).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pa_json
from pydantic import BaseModel, ValidationError

from parakh.errors import InputError
from parakh.io import iter_jsonl
from parakh.schema import Generation, Judgment, Question

FIELDS = list(Judgment.model_fields)
STATUSES = ("ok", "invalid", "error", "skipped")
_TEXT = pa.string()
_LIST = pa.list_(pa.string())
_TYPES: dict[str, pa.DataType] = {
    **dict.fromkeys(("question_id", "model", "judge", "metric", "language", "status"), _TEXT),
    **dict.fromkeys(("justification", "raw_output", "reason", "label", "translator"), _TEXT),
    **dict.fromkeys(("categories", "flags", "injection_cues"), _LIST),
    "score": pa.float64(),
    "scale_max": pa.float64(),
    "sample": pa.int64(),
}  # every field but `votes`, whose keys are juror names: read by inference, then checked
_SCHEMA = pa.schema(list(_TYPES.items()))
_REQUIRED = ("question_id", "model", "judge", "metric", "language", "status")
_DEFAULTS: dict[str, Any] = {"categories": [], "flags": [], "injection_cues": [], "scale_max": 1.0}
_REPEATED = ("question_id", "model", "judge", "metric", "language", "status", "translator", "label")
# the columns the statistics read (parakh.report.columns)
STATS_COLUMNS: tuple[str, ...] = ("question_id", "model", "translator", "metric", "language")
STATS_COLUMNS += ("status", "score", "scale_max", "categories", "sample")
_BLANK_INSIDE = re.compile(rb"\n[ \t\r\x0b\x0c]*\n")  # a literal first: a fast scan
_BLANKS = b" \t\r\x0b\x0c"
_BOM = b"\xef\xbb\xbf"  # json.loads refuses it, arrow would not
_Parse = Callable[[bytes, int], pa.Table | None]  # (text, rows) -> the table, None if bad


@dataclass
class JudgeFile:
    """One model's judge rows as an arrow table (repeated texts stored once), and each row's
    line in the file."""

    table: pa.Table
    lines: Sequence[int]

    @classmethod
    def of_rows(cls, rows: Sequence[Judgment]) -> JudgeFile:
        """Rows built in memory (tests, notebooks), read as the judge stage writes them."""
        data = "".join(r.model_dump_json() + "\n" for r in rows).encode("utf-8")
        return read_judge_file(Path("<judge rows in memory>"), data)

    def judgments(self) -> list[Judgment]:
        """The rows as `Judgment` objects, built without validating again: the schema has
        checked every value, and pydantic's own `model_construct` is slower than validation."""
        table = self.table
        columns = [_values(table.column(n)) if n != "votes" else _votes(table) for n in FIELDS]
        new, assign = Judgment.__new__, object.__setattr__
        # Every field is set, so one set serves every row (pydantic adds a field's name to it on
        # assignment: already there); a set per row would add 700 bytes to each.
        # `sample` is left out of a row of sample 0, so it is not set there.
        sampled, fields_set = set(FIELDS), set(FIELDS) - {"sample"}
        rows = []
        for values in zip(*columns, strict=True):
            row = new(Judgment)
            assign(row, "__dict__", dict(zip(FIELDS, values, strict=True)))
            assign(row, "__pydantic_fields_set__", sampled if row.sample else fields_set)
            assign(row, "__pydantic_extra__", None)
            assign(row, "__pydantic_private__", None)
            rows.append(row)
        return rows

    def columns(self, names: Sequence[str]) -> pa.Table:
        """The named columns (any field but `votes`) as plain (not dictionary) arrays."""
        found = [self.table.column(n) for n in names]
        plain = [c.cast(c.type.value_type) if pa.types.is_dictionary(c.type) else c for c in found]
        return pa.table(plain, list(names))


def read_judge_file(path: Path, data: bytes | None = None) -> JudgeFile:
    """Read a judge JSONL file (`data`: its bytes, when in memory) by schema; a bad one is an
    error naming file, line and field."""
    data = path.read_bytes() if data is None else data
    table, lines = _read_rows(data, path, Judgment, _judge_table)
    if "votes" in table.column_names or any(table.column(n).null_count for n in _DEFAULTS):
        table = _defaults_filled(data, path, table)
    if table.column("sample").null_count:  # left out of the rows of sample 0
        table = table.set_column(
            table.column_names.index("sample"), "sample", pc.fill_null(table.column("sample"), 0)
        )
    for name in _REPEATED:  # repeated strings stored once (dictionary-encoded): less memory
        index = table.column_names.index(name)
        table = table.set_column(index, name, pc.dictionary_encode(table.column(name)))
    pa.default_memory_pool().release_unused()  # the parser's buffers, back to the system
    return JudgeFile(table, lines)


def _read_rows(
    data: bytes, path: Path, row_type: type[BaseModel], parse: _Parse
) -> tuple[pa.Table, Sequence[int]]:
    """A row file's table as `parse` reads it (its text without blank lines, and their count),
    and each row's line; `parse` finding it bad (None) is the error of its first bad line."""
    text, lines = without_blank_lines(data)
    table = parse(text, len(lines))
    if table is None:
        found = first_bad_line(data, path, row_type)
        raise found or InputError(path, f"not readable as {row_type.__name__} rows")
    return table, lines


def _judge_table(data: bytes, rows: int) -> pa.Table | None:
    """The file's rows if each is a `Judgment` row of JSON types, else None."""
    if not rows:
        return _SCHEMA.empty_table()
    table = _arrow(data, _SCHEMA, rows)
    if table is None or set(table.column_names) - set(FIELDS):
        return None
    if "votes" in table.column_names:
        votes = table.column("votes").type
        kinds = (pa.types.is_null, pa.types.is_integer, pa.types.is_floating)
        if not pa.types.is_struct(votes) or not all(
            any(is_kind(f.type) for is_kind in kinds) for f in votes
        ):
            return None
    for name in ("categories", "flags", "injection_cues"):
        if pc.list_flatten(table.column(name)).null_count:
            return None
    return _complete(table, _REQUIRED, STATUSES)


def _defaults_filled(data: bytes, path: Path, table: pa.Table) -> pa.Table:
    """`table` with each field a row left out given its default (a null written out is an
    error naming its line), and no votes column when no row has a vote."""
    if any(table.column(n).null_count for n in (*_DEFAULTS, "votes") if n in table.column_names):
        found = first_bad_line(data, path, Judgment)
        if found is not None:
            raise found
    for name, default in _DEFAULTS.items():
        column = table.column(name)
        if column.null_count:
            filled = pc.fill_null(column, pa.scalar(default, column.type))
            table = table.set_column(table.column_names.index(name), name, filled)
    if "votes" in table.column_names and not table.column("votes").type.num_fields:
        table = table.drop_columns(["votes"])
    return table


def _arrow(data: bytes, schema: pa.Schema, rows: int) -> pa.Table | None:
    """`data`'s `rows` rows parsed against `schema` (other fields inferred); None if arrow
    refuses it or finds another number of rows."""
    if data.startswith(_BOM):
        return None
    options = pa_json.ParseOptions(explicit_schema=schema, unexpected_field_behavior="infer")
    try:
        table = pa_json.read_json(pa.py_buffer(data), parse_options=options)
    except (pa.ArrowInvalid, UnicodeDecodeError):
        return None
    return table if table.num_rows == rows else None


def _complete(table: pa.Table, required: Sequence[str], statuses: Sequence[str]) -> pa.Table | None:
    """`table` if no `required` value is null and every status is one of `statuses`."""
    if any(table.column(n).null_count for n in required):
        return None
    return None if set(pc.unique(table.column("status")).to_pylist()) - set(statuses) else table


def without_blank_lines(data: bytes) -> tuple[bytes, Sequence[int]]:
    """`data` without its blank lines (arrow refuses a line of form feeds or vertical tabs),
    and the number of each line kept."""
    end = len(data) - 1 if data.endswith(b"\n") else len(data)  # no line after a final newline
    first = data.find(b"\n", 0, end)
    last = data.rfind(b"\n", 0, end)
    blank = (  # the first, the last or a middle line holds only whitespace
        not data[: end if first < 0 else first].strip(_BLANKS)
        or (last >= 0 and not data[last + 1 : end].strip(_BLANKS))
        or _BLANK_INSIDE.search(data, 0, end) is not None
    )
    if not blank:
        return data, range(1, data.count(b"\n", 0, end) + 2)
    parts = data[:end].split(b"\n")
    lines = [i for i, line in enumerate(parts, start=1) if line.strip()]
    return b"\n".join(parts[i - 1] for i in lines), lines


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's keys and values; a KeyError names the first key given twice."""
    found = dict(pairs)
    if len(found) < len(pairs):
        keys = [key for key, _ in pairs]
        raise KeyError(next(key for i, key in enumerate(keys) if key in keys[:i]))
    return found


def first_bad_line(data: bytes, path: Path, row_type: type[BaseModel]) -> InputError | None:
    """The error of the first line of a JSONL file that is not a `row_type` row of JSON types
    (strict: no text read as a number), naming file, line and field; None if there is none."""
    offset = 0
    for number, raw in enumerate(data.split(b"\n"), start=1):
        start, offset = offset, offset + len(raw) + 1
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            return InputError(path, f"invalid UTF-8 at byte {start + e.start}", line=number)
        if not text.strip():
            continue
        try:
            obj = json.loads(text, object_pairs_hook=_unique_keys)
        except json.JSONDecodeError as e:
            return InputError(path, f"not valid JSON ({e.msg} at column {e.colno})", line=number)
        except KeyError as e:
            return InputError(path, "a key given twice", line=number, field=str(e.args[0]))
        if not isinstance(obj, dict):
            message = f"expected a JSON object, got {type(obj).__name__}"
            return InputError(path, message, line=number)
        try:
            row_type.model_validate(obj)  # pydantic's own message first
            row_type.model_validate_json(text, strict=True)  # then no value coerced
        except ValidationError as e:
            err = e.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or None
            return InputError(path, err["msg"], line=number, field=field)
    return None


def _votes(table: pa.Table) -> list[dict[str, float | None]]:
    """Each row's votes: every juror of the file, None where there is no vote; a row no
    juror voted on has none."""
    if "votes" not in table.column_names:
        return [{} for _ in range(table.num_rows)]
    return [
        {k: None if v is None else float(v) for k, v in row.items()}
        if row and any(v is not None for v in row.values())
        else {}
        for row in table.column("votes").to_pylist()
    ]


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


ANSWER_FIELDS = ("question_id", "model", "status", "response", "error")
# The kind of each other field of `Generation` (nulls are typed null by arrow when a column
# has no value at all).
_KINDS: dict[str, tuple[Callable[[pa.DataType], bool], ...]] = {
    "messages": (pa.types.is_list,),
    "usage": (pa.types.is_struct,),
    "latency_s": (pa.types.is_integer, pa.types.is_floating),
    "cached": (pa.types.is_boolean,),
    "request_hash": (pa.types.is_string,),
    "translation": (pa.types.is_struct,),
    "prompt": (pa.types.is_string,),
    "truncation": (pa.types.is_struct,),
    "finish_reason": (pa.types.is_string,),
}


@dataclass(frozen=True, slots=True)
class Answer:
    """One generations row as aggregate shows it."""

    question_id: str
    model: str
    status: str
    response: str | None = None
    error: str | None = None


def read_answers(path: Path) -> list[Answer]:
    """Every row of a generations file, in file order (a bad one: `first_bad_line`)."""
    table, _ = _read_rows(path.read_bytes(), path, Generation, _answers_table)
    values = [table.column(name).to_pylist() for name in ANSWER_FIELDS]
    del table
    pa.default_memory_pool().release_unused()
    return [Answer(*row) for row in zip(*values, strict=True)]


def _answers_table(data: bytes, rows: int) -> pa.Table | None:
    """The read fields of every row, if each is what `Generation` accepts, else None."""
    table = _arrow(data, pa.schema([(name, pa.string()) for name in ANSWER_FIELDS]), rows)
    if table is None:
        return None
    for name, kind in zip(table.column_names, table.schema.types, strict=True):
        if name not in ANSWER_FIELDS and not (
            name in _KINDS and (pa.types.is_null(kind) or any(ok(kind) for ok in _KINDS[name]))
        ):
            return None
    return _complete(table.select(list(ANSWER_FIELDS)), ANSWER_FIELDS[:3], ("ok", "error"))


@dataclass(frozen=True, slots=True)
class QuestionView:
    """A curated question as the reports and MLflow runs show it: of a `Question` (each row
    validated whole, so a bad one names file, line and field) only these fields are kept."""

    id: str
    text: str
    language: str
    categories: list[str]
    reference_answers: list[str]
    domain: str | None = None


def read_questions(path: Path) -> list[QuestionView]:
    """Every row of a questions file, in file order."""
    return [
        QuestionView(q.id, q.text, q.language, q.categories, q.reference_answers, q.domain)
        for q in iter_jsonl(path, Question)
    ]
