"""User-facing errors: each says where the problem is and what to do about it."""

from __future__ import annotations

import difflib
import errno
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from pydantic import ValidationError


class ParakhError(Exception):
    """An error the user can fix; entry points print it without a traceback and exit 2."""

    exit_code = 2


class InputError(ParakhError):
    """Bad input data, naming the file, the row or line, and the field."""

    def __init__(
        self, path: object, message: str, *, line: int | None = None, field: str | None = None
    ) -> None:
        where = str(path)
        if line is not None:
            where += f", line {line}"
        if field is not None:
            where += f", field '{field}'"
        super().__init__(f"{where}: {message}")
        self.path = str(path)
        self.line = line
        self.field = field


class ConfigError(ParakhError):
    """A configuration that cannot be used (unknown name, unknown key, bad value)."""


class MissingDependencyError(ParakhError):
    """An optional dependency is not installed; the message gives the install line."""

    def __init__(self, what: str, install: str) -> None:
        super().__init__(f"{what} is not installed. Install it with:\n    {install}")


class FileSystemError(ParakhError):
    """The filesystem refused a read or a write: a full disk, no permission, a read-only mount.

    Every output is written to a temporary file beside it and renamed into place, so a refused
    write leaves the earlier file (or none) and no half-written one: fixing the cause and
    running again is all it takes."""


_FS_ADVICE = {
    errno.ENOSPC: "the disk is full: free space on it (or move the project to a larger disk) "
    "and run again; files already written are whole, so a rerun picks up from them",
    errno.EDQUOT: "the disk quota is used up: free space under your quota and run again",
    errno.EACCES: "permission denied: make the folder writable (`chmod -R u+w` on it) or run "
    "from a copy of the project you own",
    errno.EPERM: "operation not permitted: check the folder's owner and permissions",
    errno.EROFS: "the filesystem is read-only: run from a copy of the project on a writable disk",
}


@contextmanager
def reported_as_errors() -> Iterator[None]:
    """Around an entry point: a `ParakhError` (or a full disk, a refused write) prints as one
    `error:` line and exits with its code, without a traceback."""
    try:
        yield
    except ParakhError as e:
        _exit(e)
    except BrokenPipeError:  # `parakh info | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OSError as e:
        advice = _FS_ADVICE.get(e.errno or 0)
        if advice is None:  # a refused connection, a bug: keep the traceback
            raise
        where = e.filename if e.filename is not None else "a file Parakh writes"
        _exit(FileSystemError(f"{where}: {e.strerror or e}; {advice}"))


def _exit(error: ParakhError) -> NoReturn:
    print(f"error: {error}", file=sys.stderr)
    sys.exit(error.exit_code)


def did_you_mean(
    name: str,
    options: Iterable[str],
    *,
    cutoff: float = 0.5,
    candidates: int = 3,
    shown: Callable[[str], str] = repr,
) -> str:
    """` Did you mean 'a', 'b'?` for up to three options close to `name` (of the `candidates`
    closest, each as `shown` writes it, repeats dropped); '' when none is. Every "unknown name"
    message in Parakh ends this way."""
    close = difflib.get_close_matches(name, list(options), n=candidates, cutoff=cutoff)
    named = list(dict.fromkeys(shown(c) for c in close))[:3]
    return f" Did you mean {', '.join(named)}?" if named else ""


def first_field_error(e: ValidationError, unknown_key: str = "unknown key") -> tuple[str, str]:
    """(`sampling.max_tokens`, its message) of a pydantic error's first problem, an unknown key
    said as `unknown_key`: how every schema error names the field it is about."""
    err = e.errors()[0]
    field = ".".join(str(p) for p in err["loc"])
    return field, unknown_key if err["type"] == "extra_forbidden" else err["msg"]
