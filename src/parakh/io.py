"""Atomic file writes and strict JSONL reads, both streamed.

A stage's output appears only when complete: everything is written to a temporary file in the
same folder and renamed into place, so a crash never leaves a partial file behind. JSONL is read
a line at a time and written a row at a time (`atomic_jsonl`), so a stage over N rows need not
hold N rows, or the file's text, in memory.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from array import array
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TypeVar, overload

from pydantic import BaseModel, ValidationError

from parakh.errors import InputError
from parakh.hashing import canonical_json

M = TypeVar("M", bound=BaseModel)


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w") -> Iterator[IO[Any]]:
    """Open a temporary sibling of `path`; rename it over `path` only if the block succeeds."""
    with _atomic_file(path, mode) as (f, _):
        yield f


@contextlib.contextmanager
def _atomic_file(path: str | Path, mode: str) -> Iterator[tuple[IO[Any], Path]]:
    """`atomic_open`, also giving the temporary file's path (to read back what was written)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    binary = "b" in mode
    umask = os.umask(0)  # reading the umask sets it: put it back at once
    os.umask(umask)
    os.chmod(tmp_name, 0o666 & ~umask)
    try:
        f: IO[Any] = (
            os.fdopen(fd, mode) if binary else os.fdopen(fd, mode, encoding="utf-8", newline="\n")
        )
        with f:
            yield f, Path(tmp_name)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp_name, target)
    except BaseException as e:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        if isinstance(e, OSError) and e.filename is None and e.errno is not None:
            # a write or fsync refused (a full disk) names no file: name the one being written
            raise OSError(e.errno, e.strerror, str(target)) from e
        raise


def dumps(obj: Any) -> str:
    """One row as written: the canonical JSON that is also hashed (UTF-8 text kept readable,
    keys in a stable order), so a row's bytes and its hash never disagree."""
    return canonical_json(obj)


def write_jsonl(path: str | Path, rows: Iterable[BaseModel | dict[str, Any]]) -> int:
    """Write rows as JSON Lines atomically; returns the number of rows."""
    with atomic_jsonl(path) as out:
        out.write_all(rows)
    return out.rows


class JsonlWriter:
    """Rows written to a JSONL file one at a time (`atomic_jsonl`)."""

    def __init__(self, file: IO[str], temporary: Path) -> None:
        self._file = file
        self.temporary = temporary
        self.rows = 0

    def write(self, row: BaseModel | dict[str, Any]) -> None:
        plain = row.model_dump(mode="json") if isinstance(row, BaseModel) else row
        self._file.write(dumps(plain) + "\n")
        self.rows += 1

    def write_all(self, rows: Iterable[BaseModel | dict[str, Any]]) -> None:
        for row in rows:
            self.write(row)

    def written(self, model: type[M]) -> JsonlRows[M]:
        """The rows written so far, read back from the unfinished file when iterated."""
        self._file.flush()
        return JsonlRows(self.temporary, model)


@contextlib.contextmanager
def atomic_jsonl(path: str | Path) -> Iterator[JsonlWriter]:
    """`write_jsonl` a row at a time: each row goes to a temporary sibling of `path` when it is
    written (memory does not grow with the rows), `JsonlWriter.written` reads them back, and the
    file is renamed over `path` only if the block succeeds."""
    with _atomic_file(path, "w") as (file, temporary):
        yield JsonlWriter(file, temporary)


class JsonlRows(Sequence[M]):
    """The rows of a JSONL file, validated as `model` anew on each pass instead of held in
    memory: a Sequence as long as the file (a summary over a million rows) in the memory of one
    row and an offset per row. For files this process wrote: a row that does not validate is a
    ValidationError, not an InputError naming the line."""

    def __init__(self, path: str | Path, model: type[M]) -> None:
        self.path = Path(path)
        self.model = model
        self._offsets = array("q")
        offset = 0
        with self.path.open("rb") as f:
            for raw in f:
                if raw.strip():
                    self._offsets.append(offset)
                offset += len(raw)

    def __len__(self) -> int:
        return len(self._offsets)

    def __iter__(self) -> Iterator[M]:
        with self.path.open("rb") as f:
            for raw in f:
                if raw.strip():
                    yield self.model.model_validate_json(raw)

    @overload
    def __getitem__(self, index: int) -> M: ...
    @overload
    def __getitem__(self, index: slice) -> list[M]: ...
    def __getitem__(self, index: int | slice) -> M | list[M]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        with self.path.open("rb") as f:
            f.seek(self._offsets[index])
            return self.model.model_validate_json(f.readline())


def write_json(path: str | Path, obj: Any) -> None:
    with atomic_open(path) as f:
        f.write(json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def write_text(path: str | Path, text: str) -> None:
    with atomic_open(path) as f:
        f.write(text)


def read_text(path: str | Path) -> str:
    """Read UTF-8 text, naming the file and the byte offset when it is not valid UTF-8."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(path, f"invalid UTF-8 at byte {e.start}", line=line) from e


def jsonl_lines(text: str) -> list[str]:
    """The lines of JSONL text, split at "\n" only (a "\r" before it is JSON whitespace).
    Not `str.splitlines()`: it also splits at U+2028, U+2029, U+0085 and other separators,
    which JSON strings hold raw (we write with ensure_ascii=False), so one answer containing
    U+2028 would tear its row in two."""
    return text.split("\n")


def iter_json_rows(
    path: str | Path, label: str | Path | None = None
) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(line number, byte offset, object) for each non-blank line of a JSONL file, read as
    iterated (the memory of one line, whatever the file's size) and split at "\n" only, as
    `jsonl_lines` splits; the offset reads the row again (`read_json_at`). Invalid UTF-8 is an
    InputError naming the byte and line; bad JSON names `label` (e.g. the path as a config gave
    it) or the path."""
    where, offset = path if label is None else label, 0
    with Path(path).open("rb") as f:
        for lineno, raw in enumerate(f, start=1):
            start, offset = offset, offset + len(raw)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                message = f"invalid UTF-8 at byte {start + e.start}"
                raise InputError(path, message, line=lineno) from e
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                message = f"not valid JSON ({e.msg} at column {e.colno})"
                raise InputError(where, message, line=lineno) from e
            if not isinstance(obj, dict):
                message = f"expected a JSON object, got {type(obj).__name__}"
                raise InputError(where, message, line=lineno)
            yield lineno, start, obj


def iter_json_objects(
    path: str | Path, label: str | Path | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each non-blank line of a JSONL file, read as iterated;
    errors name `label` (e.g. the path as a config gave it) or the path."""
    for lineno, _, obj in iter_json_rows(path, label):
        yield lineno, obj


def read_json_at(file: IO[bytes], offset: int) -> dict[str, Any]:
    """The JSON object on the line at byte `offset` of an open JSONL file (one that
    `iter_json_rows` has read, so it is valid)."""
    file.seek(offset)
    obj: dict[str, Any] = json.loads(file.readline())
    return obj


def read_jsonl(path: str | Path, model: type[M]) -> list[M]:
    """Read and validate every row of a JSONL file against `model`."""
    return list(iter_jsonl(path, model))


def iter_jsonl(path: str | Path, model: type[M]) -> Iterator[M]:
    """`read_jsonl` a row at a time: each row validated as it is read."""
    for lineno, obj in iter_json_objects(path):
        yield validate_row(model, obj, path, lineno)


def validate_row(model: type[M], obj: dict[str, Any], path: str | Path, line: int) -> M:
    try:
        return model.model_validate(obj)
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or None
        raise InputError(path, err["msg"], line=line, field=field) from e
