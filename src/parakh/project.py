"""Where the project lives: its root, its Hydra configs, its data folders.

Stages resolve every path against the project root (the folder holding `conf/` and `dvc.yaml`),
never against whatever directory they happen to be started from. Where under it each stage
writes its outputs is `parakh.stage_outputs`.
"""

from __future__ import annotations

import os
from pathlib import Path

from parakh.errors import ConfigError


def project_root() -> Path:
    """PARAKH_ROOT if set, else the nearest folder above the cwd that holds `conf/config.yaml`."""
    env = os.environ.get("PARAKH_ROOT")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "conf" / "config.yaml").is_file():
            return folder
    raise ConfigError(
        f"no Parakh project found at or above {here}: expected conf/config.yaml. "
        "Run from the project folder or set PARAKH_ROOT."
    )


def conf_dir() -> Path:
    return project_root() / "conf"


def resolve(path: str | Path) -> Path:
    """A config path made absolute against the project root."""
    p = Path(path)
    return p if p.is_absolute() else project_root() / p
