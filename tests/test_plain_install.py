"""A plain install (no extras) imports every module of the package; what an extra adds is
refused with the line that installs it, not an ImportError at import time."""

from __future__ import annotations

import os
import shutil
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
print(failed)
"""


def test_every_module_imports_without_the_dev_only_packages() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[]", done.stdout


# The report's templates, the judge's phrase and red-flag tables, langid's and the categories'
# word lists, read from the installed wheel, not the source tree.
TEMPLATES = r"""
import sys
from parakh.report import templating
assert templating.__file__.startswith(sys.argv[1]), templating.__file__
page = templating.render("page.html.j2", title="<t>", script="heatmap.js")
assert page.startswith("<!DOCTYPE html>\n") and "<title>&lt;t&gt;</title>" in page, page[:300]
assert "thead th{background:#1f3a5f" in page and "heatmap-metric" in page, page
from parakh.judging.hardening import PHRASES
assert len(PHRASES) > 50, PHRASES
from parakh.judging.red_flags import FLAGS
assert len(FLAGS) >= 10, FLAGS
from parakh.text._lexicons import LATIN_LEXICONS
assert len(LATIN_LEXICONS["hi"][0]) > 50, LATIN_LEXICONS
from parakh.curation.categories import CONDITION_TERMS
assert "diabetes" in CONDITION_TERMS, CONDITION_TERMS
from parakh.commands.replay_models import PRESETS
assert PRESETS["nomiracl"]["prefix"] == "nomiracl", PRESETS
print("ok")
"""


def test_the_wheel_ships_the_report_templates(tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "source"
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(REPO / "src", source / "src", ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    built = subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", str(source), "-w", tmp_path / "dist"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("parakh-*.whl")
    site = tmp_path / "site"
    installed = subprocess.run(
        [*pip, "install", "--no-deps", "--no-index", "--target", site, wheel],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr[-3000:]
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", TEMPLATES, str(site)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]
