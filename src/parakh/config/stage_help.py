"""`parakh <stage> --help`: what that stage does, reads, writes and which settings it takes.

Hydra's own `--help` prints every config group and the whole composed config of the demo,
the same wall for every stage. This help is the stage's module docstring, then, from the
project's `dvc.yaml` (the pipeline the stage runs in, so it cannot drift from it), the files
the stage reads and writes and the config files whose values it takes, then the names each
config group offers. The composed config stays one command away: `parakh info <overrides>`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

from parakh.project import conf_dir, project_root

HELP_FLAGS = frozenset({"--help", "-h"})
# dvc.yaml's loop variables, shown as the names a user types
_PLACEHOLDER = re.compile(r"\$\{(?:item\.)?(?:variant\.)?([a-z_]+)\}")


def print_stage_help_and_exit(stage: str) -> None:
    """Print the help text of `stage` (curate, index, generate, ...) and exit."""
    module = sys.modules.get(f"parakh.stages.{stage}") or sys.modules.get("__main__")
    parts = [
        f"usage: parakh {stage} [key=value ...]    (or: python -m parakh.stages.{stage} ...)",
        (getattr(module, "__doc__", None) or "").strip(),
    ]
    for dvc_stage, spec in _dvc_stages(stage):
        parts.append(_io_section(dvc_stage, spec))
    parts.append(_groups_section())
    parts.append(
        "Any key of the composed config can be set as key=value (Hydra override syntax; lists "
        "as [a,b]).\nSee the composed config with `parakh info <the same overrides>`; run the "
        "whole pipeline with `dvc repro`."
    )
    print("\n\n".join(p for p in parts if p))
    sys.exit(0)


def _dvc_stages(stage: str) -> list[tuple[str, dict[str, Any]]]:
    """The dvc.yaml stages whose command runs `parakh.stages.<stage>` (direct, variants, ...)."""
    path = project_root() / "dvc.yaml"
    if not path.is_file():
        return []
    stages = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("stages") or {}
    found = []
    for name, spec in stages.items():
        body = spec.get("do", spec) if isinstance(spec, dict) else {}
        if re.search(rf"parakh\.stages\.{stage}\b", str(body.get("cmd", ""))):
            found.append((name, body))
    return found


def _io_section(name: str, body: dict[str, Any]) -> str:
    reads = [d for d in map(_entry, body.get("deps") or []) if not d.startswith("src/")]
    writes = [_entry(o) for key in ("outs", "metrics", "plots") for o in body.get(key) or []]
    params = [_entry(p) for p in body.get("params") or []]
    lines = [f"In dvc.yaml as stage `{name}`:"]
    for label, items in (("reads", reads), ("writes", writes), ("settings from", params)):
        if items:
            lines.append(f"  {label}:")
            lines.extend(f"    {_shown(item)}" for item in items)
    return "\n".join(lines)


def _entry(item: Any) -> str:
    """A dvc.yaml deps/outs/params entry: a path, or {path: keys or options}."""
    if isinstance(item, dict):
        ((key, value),) = item.items()
        return f"{key} ({', '.join(map(str, value))})" if isinstance(value, list) else key
    return str(item)


def _shown(path: str) -> str:
    # `${item}` is the dataset in the stages that loop over `datasets` alone (curate, index)
    return _PLACEHOLDER.sub(lambda m: f"<{m.group(1).replace('item', 'dataset')}>", path)


def _groups_section() -> str:
    folder = conf_dir()
    groups = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("_"))
    lines = ["Config groups (group=name; each name is conf/<group>/<name>.yaml):"]
    for group in groups:
        names = sorted(p.stem for p in Path(group).glob("*.yaml") if not p.stem.startswith("_"))
        if names:
            lines.append(f"  {group.name}: {', '.join(names)}")
    return "\n".join(lines)
