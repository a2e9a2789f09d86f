"""Opening the SQLite files Parakh keeps beside a project (response and embedding caches).

Both caches are shared by several processes on one host (parallel shards, sweep jobs): WAL mode
lets readers go on while one writes, and writers wait their turn (`busy_timeout`). SQLite does
not wait but fails at once ("database is locked") when processes open a fresh file together and
race to switch it to WAL, so opening retries that step. WAL needs shared memory between the
processes: on a network filesystem give each node its own file.

A cache file that is not a database, or whose pages are damaged (a copy cut short, a disk
fault), is a `CacheFileError` naming the file: everything in it can be recomputed, so the fix is
to move it aside or delete it.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from parakh.errors import ParakhError

BUSY_TIMEOUT_S = 60.0
# SQLite's own names for a file that is not a database, or one with damaged pages.
_DAMAGED = {"SQLITE_NOTADB", "SQLITE_CORRUPT"}


class CacheFileError(ParakhError):
    """A cache file SQLite cannot read; it holds only what can be recomputed."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(
            f"{path}: this cache file cannot be read ({reason}). It holds only results that "
            f"can be recomputed: move it aside (`mv {path} {path}.bad`) or delete it, and run "
            "again; nothing else is lost."
        )


@contextmanager
def readable(path: Path) -> Iterator[None]:
    """Turn SQLite's 'not a database' and 'malformed' errors into a `CacheFileError`."""
    try:
        yield
    except sqlite3.DatabaseError as e:
        named = getattr(e, "sqlite_errorname", "") in _DAMAGED
        if named or "not a database" in str(e) or "malformed" in str(e):
            raise CacheFileError(path, str(e)) from None
        raise


def open_store(path: str | Path, *create: str) -> sqlite3.Connection:
    """Connect to `path` (made if absent) in WAL mode and run the `create` statements."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        with readable(path):
            db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
            _use_wal(db)
            for statement in create:
                db.execute(statement)
    except BaseException:
        db.close()
        raise
    return db


def _use_wal(db: sqlite3.Connection) -> None:
    """Switch the file to WAL, retrying while another process holds the lock (see above); where
    WAL is not available the file keeps its rollback journal: slower, as safe."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
        time.sleep(random.uniform(0.005, 0.05))
