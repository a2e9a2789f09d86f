"""A frozen run spec beside every output: resolved config, code version, input hashes."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path
from typing import Any

from parakh import __version__
from parakh.hashing import sha256_path
from parakh.io import write_json
from parakh.project import project_root


def git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=project_root(),
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 else "unknown"


def input_hashes(paths: dict[str, Path]) -> dict[str, str]:
    return {name: sha256_path(p) for name, p in sorted(paths.items()) if p.exists()}


def write_run_spec(
    path: Path, *, stage: str, config: dict[str, Any], inputs: dict[str, Path]
) -> dict[str, Any]:
    """Write the spec; it holds nothing that changes between identical runs (no timestamps),
    so that re-running a stage on the same inputs reproduces its outputs byte for byte."""
    spec = {
        "stage": stage,
        "parakh_version": __version__,
        "config": config,
        "inputs": input_hashes(inputs),
    }
    write_json(path, spec)
    return spec


def dvc_md5(path: Path) -> str:
    """A file's hash as DVC records it in dvc.lock (`md5` of the bytes; DVC 3)."""
    with path.open("rb") as f:
        return hashlib.file_digest(f, lambda: hashlib.md5(usedforsecurity=False)).hexdigest()


def dvc_hash_tags(paths: list[Path]) -> dict[str, str]:
    """`dvc.md5.<path relative to the project root>` -> md5, for every existing input file."""
    root = project_root()
    tags = {}
    for p in sorted(set(paths)):
        if p.is_file():
            try:
                name = str(p.resolve().relative_to(root.resolve()))
            except ValueError:
                name = p.name
            tags[f"dvc.md5.{name}"] = dvc_md5(p)
    return tags
