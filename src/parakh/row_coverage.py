"""Coverage of per-sample rows: is every expected row there, exactly once, and nothing else?

A run is complete only when every expected output exists. A key names one expected row: a
question id for a model's answers, (question id, model, metric) for judge rows. `check` sets
the rows read (each with the file and line it came from) against the expected keys and returns
what is missing, duplicated or unexpected, so the judge stage, `parakh merge-shards` and
`aggregate` mean one thing by "complete" and name the same keys when a run is not. Rows read
as columns give their keys coded as integers (`check_codes`), which `check` codes itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

Key = tuple[str, ...]
SHOWN = 5  # keys named in a message; the count says how many more


@dataclass(frozen=True)
class Where:
    """The file and line a row was read from."""

    path: Path
    line: int


@dataclass
class Coverage:
    """Expected keys against the rows read: `missing` in expected order, `duplicates` with every
    place the key was read, `unexpected` with its first place, both in reading order."""

    expected: int
    missing: list[Key] = field(default_factory=list)
    duplicates: dict[Key, list[Where]] = field(default_factory=dict)
    unexpected: dict[Key, Where] = field(default_factory=dict)

    @property
    def covered(self) -> int:
        """Expected keys with at least one row."""
        return self.expected - len(self.missing)

    @property
    def complete(self) -> bool:
        return not (self.missing or self.duplicates or self.unexpected)

    @property
    def rows_text(self) -> str:
        return f"{self.covered} of {self.expected} rows"


def check(expected: Iterable[Key], rows: Iterable[tuple[Key, Where]]) -> Coverage:
    """Which `expected` keys have no row, which keys have several, which were not expected:
    `check_codes` with each distinct key coded in order of first mention."""
    codes = {key: i for i, key in enumerate(dict.fromkeys(expected))}
    wanted = np.arange(len(codes))
    found: list[int] = []
    places: list[Where] = []
    for key, where in rows:
        found.append(codes.setdefault(key, len(codes)))
        places.append(where)
    keys = list(codes)
    return check_codes(wanted, np.array(found), keys.__getitem__, places.__getitem__)


def key_text(key: Key) -> str:
    """`'demo-071'` for a one-part key, `(demo-071, smollm2, chrf)` for a longer one."""
    return f"'{key[0]}'" if len(key) == 1 else f"({', '.join(key)})"


def some_keys(keys: Sequence[Key], shown: int = SHOWN) -> str:
    """The first `shown` keys, and how many more there are."""
    text = ", ".join(key_text(k) for k in keys[:shown])
    return text + (f" and {len(keys) - shown} more" if len(keys) > shown else "")


def places_text(places: Sequence[Where]) -> str:
    """`lines 3 and 9` of one file; with several files, each line with its file."""
    if len({p.path for p in places}) == 1:
        lines = [str(p.line) for p in places]
        return f"lines {', '.join(lines[:-1])} and {lines[-1]}"
    return ", ".join(f"{p.path} line {p.line}" for p in places)


def duplicates_text(coverage: Coverage, what: str) -> str:
    """`<what> <key> has 2 rows (lines 3 and 9)`, then how many more keys are duplicated."""
    keys = list(coverage.duplicates)
    first = keys[0]
    text = (
        f"{what} {key_text(first)} has {len(coverage.duplicates[first])} rows "
        f"({places_text(coverage.duplicates[first])})"
    )
    if len(keys) > 1:
        more = "; ".join(
            f"{key_text(k)} ({places_text(coverage.duplicates[k])})" for k in keys[1:SHOWN]
        )
        rest = f" and {len(keys) - SHOWN} more" if len(keys) > SHOWN else ""
        text += f"; {len(keys) - 1} more keys are duplicated: {more}{rest}"
    return text


def check_codes(
    expected: np.ndarray,
    codes: np.ndarray,
    key: Callable[[int], Key],
    where: Callable[[int], Where],
) -> Coverage:
    """`check` of keys coded as integers, one code per distinct key: `expected` the distinct
    expected codes in expected order, `codes` each row's in reading order; `key` names a code
    and `where` the row at a position. The same Coverage, with no object per row: at millions
    of rows a tuple and a place per row held gigabytes."""
    expected = np.asarray(expected, dtype=np.int64)
    codes = np.asarray(codes, dtype=np.int64)
    found, first, counts = np.unique(codes, return_index=True, return_counts=True)
    by_code = np.argsort(codes, kind="stable")  # each code's rows together, in reading order
    starts = np.cumsum(counts) - counts
    duplicates: dict[Key, list[Where]] = {}
    several = np.flatnonzero(counts > 1)
    for i in several[np.argsort(first[several], kind="stable")].tolist():
        rows = by_code[starts[i] : starts[i] + counts[i]].tolist()
        duplicates[key(int(found[i]))] = [where(r) for r in rows]
    others = np.flatnonzero(~np.isin(found, expected))
    unexpected = {
        key(int(found[i])): where(int(first[i]))
        for i in others[np.argsort(first[others], kind="stable")].tolist()
    }
    return Coverage(
        expected=int(expected.size),
        missing=[key(c) for c in expected[~np.isin(expected, found)].tolist()],
        duplicates=duplicates,
        unexpected=unexpected,
    )
