"""Atomic file writes and strict JSONL reads.

A stage's output appears only when complete: everything is written to a temporary file in the
same folder and renamed into place, so a crash never leaves a partial file behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

from pydantic import BaseModel, ValidationError

from parakh.errors import InputError

M = TypeVar("M", bound=BaseModel)


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w") -> Iterator[IO[Any]]:
    """Open a temporary sibling of `path`; rename it over `path` only if the block succeeds."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    binary = "b" in mode
    os.chmod(tmp_name, 0o666 & ~_umask())
    try:
        f: IO[Any] = (
            os.fdopen(fd, mode) if binary else os.fdopen(fd, mode, encoding="utf-8", newline="\n")
        )
        with f:
            yield f
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


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def dumps(obj: Any) -> str:
    """Canonical JSON for one row: UTF-8 text kept readable, keys in a stable order."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def to_plain(row: BaseModel | dict[str, Any]) -> dict[str, Any]:
    return row.model_dump(mode="json") if isinstance(row, BaseModel) else row


def write_jsonl(path: str | Path, rows: Iterable[BaseModel | dict[str, Any]]) -> int:
    """Write rows as JSON Lines atomically; returns the number of rows."""
    n = 0
    with atomic_open(path) as f:
        for row in rows:
            f.write(dumps(to_plain(row)) + "\n")
            n += 1
    return n


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


def iter_json_objects(
    path: str | Path, label: str | Path | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each non-blank line of a JSONL file; errors name
    `label` (e.g. the path as a config gave it) or the path."""
    where = path if label is None else label
    for lineno, line in enumerate(jsonl_lines(read_text(path)), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(
                where, f"not valid JSON ({e.msg} at column {e.colno})", line=lineno
            ) from e
        if not isinstance(obj, dict):
            raise InputError(
                where, f"expected a JSON object, got {type(obj).__name__}", line=lineno
            )
        yield lineno, obj


def read_jsonl(path: str | Path, model: type[M]) -> list[M]:
    """Read and validate every row of a JSONL file against `model`."""
    return [validate_row(model, obj, path, lineno) for lineno, obj in iter_json_objects(path)]


def validate_row(model: type[M], obj: dict[str, Any], path: str | Path, line: int) -> M:
    try:
        return model.model_validate(obj)
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or None
        raise InputError(path, err["msg"], line=line, field=field) from e
