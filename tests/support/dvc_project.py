"""A copy of the project in a temp folder, with its own git and DVC, for tests that run real
`dvc repro` / `dvc exp run` the way a user does (the scale and real-data route tests).

`copy_project` copies the code, configs and demo data with MLflow switched off (each test that
needs MLflow says so itself); `stage_env` is the environment DVC's stage commands then run in;
`git_init` makes the first commit.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

TOP_FILES = ("dvc.yaml", "params.yaml", ".gitignore", ".dvcignore", ".dvc/config")


def copy_project(
    repo: Path,
    root: Path,
    *,
    folders: Iterable[str] = ("conf", "src", "data/raw/demo"),
    tracking: bool = False,
) -> None:
    """`repo`'s code, configs and `folders` under `root` (created), MLflow off unless asked."""
    root.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in folders:
        shutil.copytree(repo / name, root / name, ignore=ignore)
    for name in TOP_FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(repo / name, root / name)
    if not tracking:  # seconds per aggregate, and not what these tests check
        config = root / "conf/config.yaml"
        config.write_text(config.read_text().replace("enabled: true ", "enabled: false"))


def update_yaml(path: Path, **values: Any) -> None:
    """Set top-level keys of a YAML file (params.yaml, a conf file), keeping the key order."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    data.update(values)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def stage_env(root: Path) -> dict[str, str]:
    """This environment less what would leak into the stages (Hydra, MLflow and DVC variables),
    with `root` as the project and this interpreter's scripts (dvc, parakh) first on PATH."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"HYDRA_FULL_ERROR", "MLFLOW_TRACKING_URI"} and not k.startswith("DVC_")
    }
    env["PARAKH_ROOT"] = str(root)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    return env


def run_command(
    cmd: list[str], root: Path, env: dict[str, str], *, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=timeout)


def git_init(root: Path, env: dict[str, str], message: str = "init") -> None:
    """`git init` with a local identity, and everything committed."""
    for cmd in (
        ["git", "init", "-q"],
        ["git", "config", "user.email", "t@t"],
        ["git", "config", "user.name", "t"],
        ["git", "add", "-A"],
        ["git", "commit", "-q", "-m", message],
    ):
        out = run_command(cmd, root, env, timeout=120)
        if out.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}")
