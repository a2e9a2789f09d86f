"""User-facing errors: each says where the problem is and what to do about it."""

from __future__ import annotations


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
