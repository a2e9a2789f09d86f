"""Every parakh module a stage imports is a dependency of that stage in dvc.yaml, so a code
change re-runs exactly the stages whose code changed (and `dvc repro` never skips one)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO

_MODULE = re.compile(r"python -m (parakh\.stages\.\w+)")

_LOADED = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
files = [m.__file__ for n, m in list(sys.modules.items())
         if (n == "parakh" or n.startswith("parakh.")) and getattr(m, "__file__", None)]
print(json.dumps(files))
"""


def _stages() -> dict[str, tuple[str, list[str]]]:
    """stage -> (its module, its dep paths cut at the first `${`: path prefixes)."""
    document = yaml.safe_load((REPO / "dvc.yaml").read_text(encoding="utf-8"))
    stages = {}
    for name, stage in document["stages"].items():
        body = stage.get("do", stage)
        match = _MODULE.search(" ".join(body["cmd"].split()))
        assert match, f"stage {name}: no `python -m parakh.stages.<x>` in its cmd"
        stages[name] = (match[1], [str(d).split("${")[0] for d in body.get("deps") or []])
    return stages


def _loaded_files(module: str) -> list[Path]:
    out = subprocess.run(
        [sys.executable, "-c", _LOADED, module],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return [Path(f).resolve() for f in json.loads(out.stdout)]


def _covered(relative: str, deps: list[str]) -> bool:
    return any(relative == d or relative.startswith(d.rstrip("/") + "/") for d in deps if d)


@pytest.mark.parametrize("stage", sorted(_stages()))
def test_every_imported_parakh_module_is_a_dep_of_its_stage(stage: str) -> None:
    module, deps = _stages()[stage]
    files = [p.relative_to(REPO).as_posix() for p in _loaded_files(module)]
    assert f"src/{module.replace('.', '/')}.py" in files  # the editable install: this tree
    missing = sorted(f for f in files if not _covered(f, deps))
    assert not missing, f"dvc.yaml stage {stage} imports but does not depend on: {missing}"


def test_a_dep_that_misses_a_module_is_caught() -> None:
    assert _covered("src/parakh/io.py", ["src/parakh/io.py"])
    assert _covered("src/parakh/backends/base.py", ["src/parakh/backends"])
    assert not _covered("src/parakh/backends/base.py", ["src/parakh/back"])
    assert not _covered("src/parakh/io.py", ["data/processed/"])
