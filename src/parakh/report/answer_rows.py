"""The answers aggregate shows: from each generations file, the question, model, status and the
answer or error text of every row, nothing else.

A generations row also holds the prompt it was asked with, token usage, latency and more; no
page or statistic of aggregate reads them, and at N = 100,000 the rows as validated objects
were a fifth of aggregate's time and most of its memory. So a file is parsed by pyarrow: the
fields read here against their schema (strings, the status `ok` or `error`, ids present), every
other field by name (a field `Generation` does not have) and kind (a number, a flag, a text, a
record or list where the schema says so). A file that does not pass (bad JSON, a wrong type, a
missing id, an unknown field, a byte-order mark) is read the old way, each row validated whole
as a `Generation`, so its error names file, line and field as it always did. Inside the nested
fields (the messages, usage, translation, truncation records) only their kind is checked here;
the judge stage validated them whole when it read the same file (DVC reruns judge when it
changes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pa_json

from parakh.io import iter_json_objects, validate_row
from parakh.report.judge_rows import nonblank_lines
from parakh.schema import Generation

FIELDS = ("question_id", "model", "status", "response", "error")
_REQUIRED = ("question_id", "model", "status")
_STATUSES = {"ok", "error"}
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

    @classmethod
    def of(cls, generation: Generation) -> Answer:
        g = generation
        return cls(g.question_id, g.model, g.status, g.response, g.error)


def read_answers(path: Path) -> list[Answer]:
    """Every row of a generations file, in file order."""
    data = path.read_bytes()
    table = _parsed(data)
    if table is not None and table.num_rows == len(nonblank_lines(data)):
        values = [table.column(name).to_pylist() for name in FIELDS]
        del table, data
        pa.default_memory_pool().release_unused()
        return [Answer(*row) for row in zip(*values, strict=True)]
    return [
        Answer.of(validate_row(Generation, obj, path, line))
        for line, obj in iter_json_objects(path)
    ]


def _parsed(data: bytes) -> pa.Table | None:
    """The read fields of every row, if each is what `Generation` accepts, else None."""
    if data.startswith(b"\xef\xbb\xbf"):
        return None
    schema = pa.schema([(name, pa.string()) for name in FIELDS])
    options = pa_json.ParseOptions(explicit_schema=schema, unexpected_field_behavior="infer")
    try:
        table = pa_json.read_json(pa.py_buffer(data), parse_options=options)
    except (pa.ArrowInvalid, UnicodeDecodeError):
        return None
    for name, kind in zip(table.column_names, table.schema.types, strict=True):
        if name in FIELDS:
            continue
        if name not in _KINDS or not (
            pa.types.is_null(kind) or any(is_ok(kind) for is_ok in _KINDS[name])
        ):
            return None
    table = table.select(list(FIELDS))
    if any(table.column(name).null_count for name in _REQUIRED):
        return None
    if set(pc.unique(table.column("status")).to_pylist()) - _STATUSES:
        return None
    return table
