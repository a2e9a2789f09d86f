"""A plain install (no extras) imports every module of the package; what an extra adds is
refused with the line that installs it, not an ImportError at import time."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO

# Every module of the wheel, imported in a Python where the dev-only packages are hidden.
SCRIPT = r"""
import importlib, pkgutil, sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"starlette", "uvicorn", "httptools", "pytest"}:
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, Hide())
import parakh
failed = []
for info in pkgutil.walk_packages(parakh.__path__, "parakh."):
    if info.name.endswith("__main__"):
        continue
    try:
        importlib.import_module(info.name)
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in {"starlette", "uvicorn", "httptools", "pytest"}:
            failed.append((info.name, e.name))
from parakh.errors import MissingDependencyError
from parakh.testing.fault_server import FaultSettings, create_app
try:
    create_app(FaultSettings())
except MissingDependencyError as e:
    assert "parakh[testing]" in str(e), e
else:
    raise SystemExit("create_app ran without starlette")
print(failed)
"""


def test_every_module_imports_without_the_dev_only_packages() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[]", done.stdout
