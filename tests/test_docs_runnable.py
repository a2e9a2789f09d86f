"""Every block marked runnable in README.md and docs/*.md runs as printed, on a fresh clone.

A block is marked by the line `<!-- runnable -->` right before its opening fence: ```bash (or
sh, shell) or ```python (see tests/test_docs.py). Each block runs in its own
throw-away copy of the project (conf/, params.yaml, dvc.yaml, data/raw/demo: what git holds,
nothing a pipeline run made), from the copy's root, with this interpreter's bin folder (the
project's virtualenv) first on PATH and PARAKH_ROOT naming the copy: a shell block under
`bash -e`, a Python block with this interpreter. It must exit 0 within its timeout. Only cheap,
offline blocks are marked: the Hugging Face libraries are told to stay offline, and no block
may load a model beyond the hashing embedder.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = "<!-- runnable -->"
SHELLS = {"bash", "sh", "shell"}
PYTHON = {"python", "py"}
# What a block may use from the project: the files of a fresh clone, none of its outputs.
PROJECT = ("conf", "params.yaml", "dvc.yaml", "data/raw/demo")
TIMEOUT_S = 120
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}

_FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)\s*$")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # the opening fence's line, 1-based
    language: str
    code: str

    @property
    def name(self) -> str:
        return f"{_shown(self.page)}:{self.line}"


def _shown(page: Path) -> str:
    return str(page.relative_to(ROOT)) if page.is_relative_to(ROOT) else page.name


def marked_blocks(page: Path, text: str | None = None) -> list[Block]:
    """The blocks of `page` (or of `text`, read as that page) whose opening fence follows the
    marker line; a marker anywhere else is an error, so a marked block is never skipped."""
    lines = (page.read_text(encoding="utf-8") if text is None else text).splitlines()
    blocks: list[Block] = []
    for i, line in enumerate(lines):
        if line.strip() != MARKER:
            continue
        where = f"{_shown(page)}:{i + 1}"
        fence = _FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
        if fence is None:
            raise AssertionError(f"{where}: {MARKER} must be followed by an opening fence")
        indent, mark, language = fence.groups()
        if language not in SHELLS | PYTHON:
            raise AssertionError(f"{where}: a runnable block is bash or python, not {language!r}")
        body: list[str] = []
        for end in range(i + 2, len(lines)):
            if lines[end].strip() == mark:
                break
            body.append(lines[end][len(indent) :] if lines[end].startswith(indent) else lines[end])
        else:
            raise AssertionError(f"{where}: the runnable block is never closed")
        blocks.append(Block(page, i + 2, language, "\n".join(body) + "\n"))
    return blocks


BLOCKS = [block for page in PAGES for block in marked_blocks(page)]


def fresh_project(root: Path) -> Path:
    """A copy of the project as a fresh clone has it, under `root`."""
    project = root / "project"
    for name in PROJECT:
        source, target = ROOT / name, project / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy2(source, target)
    return project


def test_the_readme_and_docs_have_runnable_blocks() -> None:
    pages = {block.page for block in BLOCKS}
    assert ROOT / "README.md" in pages, "README.md marks no block runnable"
    assert len(BLOCKS) >= 5, [b.name for b in BLOCKS]


def test_a_marker_must_precede_a_block() -> None:
    page = Path("probe.md")
    with pytest.raises(AssertionError, match="must be followed by an opening fence"):
        marked_blocks(page, f"# Probe\n\n{MARKER}\nplain text\n")
    with pytest.raises(AssertionError, match="bash or python, not 'yaml'"):
        marked_blocks(page, f"{MARKER}\n```yaml\na: 1\n```\n")
    with pytest.raises(AssertionError, match="never closed"):
        marked_blocks(page, f"{MARKER}\n```bash\necho hi\n")
    found = marked_blocks(page, f"text\n\n{MARKER}\n```bash\necho hi\n```\n```bash\nno\n```\n")
    assert [(b.name, b.language, b.code) for b in found] == [("probe.md:4", "bash", "echo hi\n")]


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name for b in BLOCKS])
def test_a_runnable_block_runs_as_printed(block: Block, tmp_path: Path) -> None:
    if "import evaluate" in block.code and importlib.util.find_spec("evaluate") is None:
        pytest.skip("evaluate is not installed (pip install -e '.[dev]')")
    project = fresh_project(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    env.update(OFFLINE)
    env.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        PARAKH_ROOT=str(project),
        DVC_NO_ANALYTICS="1",
        HF_HOME=str(tmp_path / "hf"),
        HF_MODULES_CACHE=str(tmp_path / "hf-modules"),
    )
    if block.language in SHELLS:
        command = ["bash", "-e", "-c", block.code]
    else:
        command = [sys.executable, "-c", block.code]
    try:
        done = subprocess.run(
            command,
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{block.name}: still running after {TIMEOUT_S} s:\n{block.code}")
    assert done.returncode == 0, (
        f"{block.name} exited {done.returncode}:\n{block.code}\n"
        f"--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}"
    )
