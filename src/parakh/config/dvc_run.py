"""params.yaml says which datasets, models and evaluation modes run; conf/ says how each runs.

DVC fans out over params.yaml, and `dvc exp run -S key=value` edits it; `-S
conf/<group>/<name>.yaml:key=value` edits that conf file, a dependency of the stages that read it.
Both are supported. What this module refuses, when a stage runs under DVC, is a setting that
would silently lose to the other file: a params.yaml key that no stage reads (a `how` value put
there changes nothing), or conf/config.yaml naming the models to aggregate while DVC runs the
models of params.yaml.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from parakh.errors import ConfigError, InputError

PARAMS_FILE = "params.yaml"

# Keys a stage reads from params.yaml itself: aggregate's `models` (when conf/ leaves it null)
# and the evaluation modes it puts each model under (parakh.report.inputs.models_to_aggregate).
READ_BY_STAGES = frozenset({"models", "variants", "translate_test"})

# `${item.model}`, `${key}`: loop variables of foreach/matrix, not params.yaml keys.
_LOOP_VARIABLES = {"item", "key", "value"}
_INTERPOLATION = re.compile(r"\$\{\s*([A-Za-z_][\w-]*)")


def under_dvc() -> bool:
    """True when DVC runs this process as a stage command (`dvc repro`, `dvc exp run`)."""
    return bool(os.environ.get("DVC_STAGE"))


def pin_project_root_to_stage_folder() -> None:
    """Under DVC, the project is the folder DVC runs the stage in, whatever PARAKH_ROOT says.

    `dvc exp run --queue` and `--temp` run each experiment in a copy under .dvc/tmp/exps/; a
    PARAKH_ROOT inherited from the shell would send that copy's outputs into the workspace.
    Hydra launcher workers inherit the pinned value.
    """
    here = Path.cwd().resolve()
    if not under_dvc() or not (here / "dvc.yaml").is_file():
        return
    if not (here / "conf" / "config.yaml").is_file():
        return
    inherited = os.environ.get("PARAKH_ROOT")
    if inherited and Path(inherited).resolve() != here:
        print(
            f"note: DVC runs this stage in {here}; that is the project root here, "
            f"not PARAKH_ROOT={inherited}",
            file=sys.stderr,
        )
    os.environ["PARAKH_ROOT"] = str(here)


def params_read_by_pipeline(dvc_yaml: Mapping[str, Any], text: str) -> set[str]:
    """Top-level params.yaml keys that dvc.yaml reads.

    A key is read when dvc.yaml interpolates it (`${models}`, `${judge}`) or a stage lists it
    under `params:` (`- models`, or `- params.yaml: [models]`). A stage listing the whole file
    (`- params.yaml:`) watches it for changes (aggregate does, so that these checks run on any
    edit); that reads no key in particular.
    """
    read = {name for name in _INTERPOLATION.findall(text) if name not in _LOOP_VARIABLES}
    for stage in (dvc_yaml.get("stages") or {}).values():
        body = stage.get("do", stage) if isinstance(stage, dict) else {}
        for entry in body.get("params") or []:
            if isinstance(entry, str):
                read.add(entry.split(".")[0])
            elif isinstance(entry, dict):
                read.update(str(k).split(".")[0] for k in entry.get(PARAMS_FILE) or [])
    return read


def _names(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def check_params_file(root: Path) -> dict[str, Any]:
    """Fail on a params.yaml key that no stage reads: a value there that would change nothing.

    Names are not checked here: the stage commands get them as overrides, which fail with the
    close matches when no conf file has that name.
    """
    path = root / PARAMS_FILE
    params = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(params, dict):
        raise InputError(path, "expected a mapping of keys to values")
    text = (root / "dvc.yaml").read_text(encoding="utf-8")
    read = params_read_by_pipeline(yaml.safe_load(text) or {}, text) | READ_BY_STAGES
    for key in params:
        if key not in read:
            raise InputError(
                path,
                f"no stage in dvc.yaml reads '{key}', so setting it changes nothing. "
                "params.yaml says which datasets and models run "
                f"({', '.join(sorted(read))}); how each runs lives in conf/: set it there, "
                f"e.g. dvc exp run -S conf/model/<name>.yaml:{key}=...",
                field=key,
            )
    return params


def check_models_agree(configured: list[str] | None, params: Mapping[str, Any]) -> None:
    """conf/config.yaml's `models` must not name other models than the params.yaml DVC runs."""
    declared = params.get("models")
    if configured is None or declared is None or list(configured) == _names(declared):
        return
    raise ConfigError(
        f"conf/config.yaml sets models={list(configured)}, but DVC runs the models of "
        f"params.yaml ({_names(declared)}). params.yaml decides which models run: "
        f"set them with dvc exp run -S 'models=[{','.join(configured)}]' and leave "
        "`models: null` in conf/config.yaml"
    )


def check_judge_model_agrees(judge_models: Sequence[str], params: Mapping[str, Any]) -> None:
    """params.yaml's `judge_model` names the model file DVC tracks for the judge stages: it must
    be the model the judge config names (or one of its jury's), or a change to the judge's real
    model file would not rerun judging."""
    declared = params.get("judge_model")
    if not judge_models or declared is None or declared in judge_models:
        return
    raise ConfigError(
        f"params.yaml sets judge_model={declared}, but the judge config names "
        f"{', '.join(judge_models)}: DVC would track conf/model/{declared}.yaml, not the file "
        f"the judge reads. Set it with dvc exp run -S judge_model={judge_models[0]}"
    )


def check_dvc_run(
    configured_models: list[str] | None, root: Path, judge_models: Sequence[str] = ()
) -> None:
    """The checks above, for a stage that DVC runs; a no-op for a stage run by hand.
    `judge_models`: the judge stage's judge model (or jurors), checked against `judge_model`."""
    if not under_dvc() or not (root / PARAMS_FILE).is_file() or not (root / "dvc.yaml").is_file():
        return
    params = check_params_file(root)
    check_models_agree(configured_models, params)
    check_judge_model_agrees(judge_models, params)
