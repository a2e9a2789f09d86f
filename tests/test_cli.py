"""The `parakh` command and the stage entry points explain themselves."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120)


def test_parakh_help_lists_every_stage_and_command() -> None:
    out = _run("-m", "parakh.cli", "--help")
    assert out.returncode == 0
    for name in ("curate", "translate", "index", "generate", "judge", "aggregate", "info"):
        assert name in out.stdout


def test_stage_help_shows_hydra_config_groups() -> None:
    out = _run("-m", "parakh.stages.generate", "--help")
    assert out.returncode == 0
    assert "model: extractive, smollm2" in out.stdout.replace("\n", " ") or "model:" in out.stdout


def test_unknown_model_exits_non_zero_with_close_matches() -> None:
    out = _run("-m", "parakh.stages.generate", "model=smollm3")
    assert out.returncode == 2
    assert "Unknown model 'smollm3'. Did you mean 'smollm2'?" in out.stderr
    assert "Traceback" not in out.stderr
