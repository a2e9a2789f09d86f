"""A throw-away Parakh project (a copy of conf/) to run the curate stage against, in process."""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO


@dataclass
class CurateRun:
    code: int
    out: str
    err: str


def make_project(root: Path) -> Path:
    shutil.copytree(REPO / "conf", root / "conf")
    return root


def write_dataset_config(root: Path, name: str, **fields: Any) -> None:
    config = {"name": name, "prompt": "healthbot", **fields}
    (root / "conf" / "dataset" / f"{name}.yaml").write_text(
        yaml.safe_dump(config, allow_unicode=True), encoding="utf-8"
    )


def write_files(folder: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def run_curate(
    root: Path,
    overrides: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> CurateRun:
    """`python -m parakh.stages.curate <overrides>` in this process, against `root`."""
    from parakh.stages import curate

    monkeypatch.setenv("PARAKH_ROOT", str(root))
    monkeypatch.chdir(root)
    monkeypatch.setattr(sys, "argv", ["parakh.stages.curate", *overrides])
    capsys.readouterr()
    code = 0
    try:
        curate.main()
    except SystemExit as e:
        code = int(e.code or 0)
    captured = capsys.readouterr()
    return CurateRun(code, captured.out, captured.err)


def output_files(root: Path) -> list[Path]:
    processed = root / "data" / "processed"
    return sorted(p for p in processed.rglob("*") if p.is_file()) if processed.exists() else []


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
