"""The bad-input corpus's one way to run a case: a throw-away project, one `parakh` command or
stage run in this process, and three checks on what came back.

Every case asserts the same three things (issue #16): a non-zero exit (never a raw traceback:
an exception escaping the entry point fails the case with it), a message that names the
file, line or field, and no partial output (no file created or changed under the folders the
case names as outputs).
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    traceback: str | None = None  # an exception escaped the entry point

    @property
    def message(self) -> str:
        return self.out + self.err


def make_project(root: Path, *, demo_data: bool = False) -> Path:
    """A project folder: conf/ and params.yaml from this checkout (and the demo data if asked)."""
    shutil.copytree(REPO / "conf", root / "conf")
    shutil.copy(REPO / "params.yaml", root / "params.yaml")
    if demo_data:
        shutil.copytree(REPO / "data" / "raw" / "demo", root / "data" / "raw" / "demo")
    return root


def run_parakh(
    root: Path,
    args: Sequence[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Outcome:
    """`parakh <args>` (a command, or a stage with Hydra overrides) in this process, in `root`."""
    from parakh import cli

    monkeypatch.setenv("PARAKH_ROOT", str(root))
    monkeypatch.chdir(root)
    monkeypatch.setattr(sys, "argv", ["parakh", *args])
    capsys.readouterr()
    code, trace = 0, None
    try:
        cli.main(list(args))
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Exception:  # noqa: BLE001 - a raw traceback is what the corpus exists to catch
        code, trace = 1, traceback.format_exc()
    captured = capsys.readouterr()
    return Outcome(code, captured.out, captured.err, trace)


def snapshot(root: Path, folders: Iterable[str]) -> dict[str, str]:
    """Path -> content hash of every file under `folders` (relative to `root`)."""
    files: dict[str, str] = {}
    for folder in folders:
        base = root / folder
        if base.is_file():
            files[folder] = hashlib.sha256(base.read_bytes()).hexdigest()
            continue
        for path in sorted(base.rglob("*")) if base.exists() else []:
            if path.is_file():
                rel = str(path.relative_to(root))
                files[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


def assert_rejected(
    outcome: Outcome,
    *,
    names: Sequence[str],
    before: dict[str, str] | None = None,
    after: dict[str, str] | None = None,
) -> None:
    """Non-zero exit without a traceback, a message naming each of `names` (a file, line or
    field), and, given snapshots, nothing written or changed."""
    assert outcome.traceback is None, f"raw traceback instead of an error:\n{outcome.traceback}"
    assert outcome.code != 0, f"exit 0 on bad input; output:\n{outcome.message}"
    assert "Traceback (most recent call last)" not in outcome.message, outcome.message
    for name in names:
        assert name in outcome.message, f"message does not name {name!r}:\n{outcome.message}"
    if before is not None and after is not None:
        changed = sorted(p for p in after if before.get(p) != after[p])
        assert not changed, f"partial output left behind: {changed}"
