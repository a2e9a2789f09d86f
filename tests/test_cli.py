"""The `parakh` command and the stage entry points explain themselves."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=120
    )


def test_parakh_help_lists_every_stage_and_command() -> None:
    out = _run("-m", "parakh.cli", "--help")
    assert out.returncode == 0
    for name in ("curate", "translate", "index", "generate", "judge", "aggregate", "info"):
        assert name in out.stdout


@pytest.mark.parametrize("stage", ["curate", "index", "generate", "judge", "aggregate"])
def test_stage_help_says_what_that_stage_reads_writes_and_takes(stage: str) -> None:
    """Each stage's help is its own: its docstring, its files from dvc.yaml, its settings; not
    one Hydra dump of the demo's composed config shared by every stage."""
    out = _run("-m", f"parakh.stages.{stage}", "--help")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"usage: parakh {stage} [key=value ...]")
    assert f"{stage}:" in out.stdout.split("\n")[2]  # the docstring's first line
    assert f"In dvc.yaml as stage `{stage}`:" in out.stdout
    assert "  reads:" in out.stdout and "  writes:" in out.stdout
    assert (
        "  settings from:\n    conf/" in out.stdout
        or "settings from:\n    params.yaml" in out.stdout
    )
    assert "  model: " in out.stdout  # the config groups' names
    assert "== Config ==" not in out.stdout  # Hydra's dump of the whole config is gone
    writes = {"curate": "data/processed/<dataset>/curate", "aggregate": "metrics.json"}
    assert writes.get(stage, f"/{stage}") in out.stdout


def test_parakh_stage_help_is_the_stage_help() -> None:
    out = _run("-m", "parakh.cli", "judge", "-h")
    assert out.returncode == 0 and "In dvc.yaml as stage `judge`:" in out.stdout


def test_unknown_model_exits_non_zero_with_close_matches() -> None:
    out = _run("-m", "parakh.stages.generate", "model=smollm3")
    assert out.returncode == 2
    assert "Unknown model 'smollm3'. Did you mean 'smollm2'?" in out.stderr
    assert "Traceback" not in out.stderr
