"""No function in src/parakh is longer than 60 lines (issue #18).

A long function is split where its pieces have names of their own. Lines are counted as `ast`
sees them, from the `def` line to the last line of the body (decorators left out), so
docstrings and comments count: they are part of what a reader has to hold at once.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tests.conftest import REPO

SRC = REPO / "src" / "parakh"
MAX_LINES = 60

# Functions still over the limit, as "<path under src/parakh>:<name>": none are left (#18).
# Never add one: split the function where its pieces have names of their own.
ALLOWED_LONG: set[str] = set()


def function_lengths() -> Iterator[tuple[str, int]]:
    """("<path>:<name>", lines) for every function and method, nested ones included."""
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = path.relative_to(SRC).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                yield f"{where}:{node.name}", node.end_lineno - node.lineno + 1


def test_no_function_over_the_limit() -> None:
    too_long = {
        name: lines
        for name, lines in function_lengths()
        if lines > MAX_LINES and name not in ALLOWED_LONG
    }
    assert not too_long, (
        f"functions over {MAX_LINES} lines (split them where the pieces have names of their "
        f"own): {', '.join(f'{n} ({k} lines)' for n, k in sorted(too_long.items()))}"
    )


def test_allowed_long_functions_are_still_long() -> None:
    """An allowed function that got short leaves the list, so the list only ever shrinks."""
    lengths = dict(function_lengths())
    stale = sorted(n for n in ALLOWED_LONG if lengths.get(n, 0) <= MAX_LINES)
    assert not stale, f"no longer over {MAX_LINES} lines (or gone), take off ALLOWED_LONG: {stale}"
