"""Schema of conf/protocol/*.yaml: a study's settings, as the DVC params that reproduce it.

A protocol is a preset of `dvc exp run -S` values: the params.yaml keys a study fixed (which
datasets, models, judge, retriever, embedder, aggregate config, and the evaluation modes beside
direct inference: `variants` for prompts and k-shot, `translate_test`) and the conf-file keys
it fixed (`conf/judge/nomiracl.yaml:parser`). `parakh protocol <name>` prints (or runs) that
one `dvc exp run`; docs/fidelity.md says, setting by setting, what the paper fixed and where
Parakh's own defaults differ on purpose.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Annotated, Any

from pydantic import AfterValidator, Field, field_validator

from parakh.config.base import Strict

# params.yaml keys a protocol may set (the lists DVC fans out over and the names it passes on)
PARAMS_KEYS = frozenset(
    {
        "datasets",
        "models",
        "judge",
        "judge_model",
        "embedder",
        "retriever",
        "aggregate",
        "variants",
        "translate_test",
    }
)
# every key an evaluation-mode entry must give (params.yaml: dvc.yaml reads each of them)
MODE_KEYS = {
    "variants": ("name", "prompt", "shots"),
    "translate_test": ("name", "translator", "prompt", "shots"),
}
CONF_KEY = re.compile(r"^conf/[\w-]+/[\w.-]+\.yaml:[\w.]+$")


def checked_conf_keys(value: dict[str, Any], note: str = "") -> dict[str, Any]:
    """`value`, once every key reads `conf/<group>/<name>.yaml:<key>` (a protocol's or a judge
    study's `conf`); the first that does not is a ValueError, `note` closing its message."""
    for key in value:
        if not CONF_KEY.match(key):
            raise ValueError(f"conf key {key!r} must read conf/<group>/<name>.yaml:<key>{note}")
    return value


ConfKeys = Annotated[dict[str, Any], AfterValidator(checked_conf_keys)]


class ProtocolConfig(Strict):
    """One study's protocol: the DVC params that reproduce its leaderboard in Parakh."""

    name: str
    study: str = Field(description="the paper, as cited")
    description: str = ""
    params: dict[str, Any] = Field(description="params.yaml keys the study fixed")
    conf: Annotated[
        dict[str, Any], AfterValidator(partial(checked_conf_keys, note=" (dotted keys allowed)"))
    ] = Field(default_factory=dict, description="`conf/<group>/<name>.yaml:<key>` the study fixed")
    models_glob: str | None = Field(
        default=None, description="conf/model/<glob>.yaml names; None: params.models"
    )
    needs: str = Field(default="", description="what to do first (import the data)")
    fidelity: str = Field(description="the docs/fidelity.md section that lists the differences")

    @field_validator("params")
    @classmethod
    def _known_params(cls, value: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(value) - PARAMS_KEYS)
        if unknown:
            raise ValueError(
                f"unknown params.yaml keys {unknown}; a protocol sets {sorted(PARAMS_KEYS)}"
            )
        for key, needed in MODE_KEYS.items():
            entries = value.get(key, [])
            if not isinstance(entries, list):
                raise ValueError(f"params.{key} must be a list of {{{', '.join(needed)}}}")
            for i, entry in enumerate(entries):
                given = sorted(entry) if isinstance(entry, dict) else []
                if given != sorted(needed):
                    raise ValueError(
                        f"params.{key}[{i}] must give exactly {list(needed)}, got {given}"
                    )
        return value
