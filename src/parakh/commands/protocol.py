"""`parakh protocol`: run a study's protocol (conf/protocol/<name>.yaml) as one DVC experiment.

    parakh protocol nomiracl --run       # without --run: print the `dvc exp run` line

A protocol is a preset of DVC params: the params.yaml keys and conf-file keys a study fixed.
Every name is checked before printing, so a bad preset fails here, not ten minutes into a run.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from parakh.commands.import_data import dvc_executable
from parakh.config import compose
from parakh.config.loading import available, check_group_overrides, load_named
from parakh.config.protocol import ProtocolConfig
from parakh.errors import ConfigError, ParakhError
from parakh.project import conf_dir, project_root

# under the list of protocols `parakh protocol` prints with no name
LIST_HINT = "`parakh protocol <name>` prints its dvc exp run; docs/fidelity.md lists differences."

HELP = "run a study's protocol (conf/protocol/) as one dvc exp run"


class ProtocolRunError(ParakhError):
    """`dvc exp run` failed (its own message is printed above)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", help="a conf/protocol/<name>.yaml name")
    parser.add_argument("--run", action="store_true", help="run the dvc exp run it prints")
    parser.add_argument(
        "--force", action="store_true", help="replace an experiment of the same name (dvc -f)"
    )


def protocol_models(protocol: ProtocolConfig) -> list[str] | None:
    """The models the protocol runs: its glob's configs, its `models` param, or None."""
    if protocol.models_glob is None:
        models = protocol.params.get("models")
        return None if models is None else [str(m) for m in models]
    return models_matching(protocol.models_glob, f"protocol '{protocol.name}'")


def models_matching(glob: str, owner: str) -> list[str]:
    """The conf/model/<glob>.yaml names, sorted; none is an error naming `owner`."""
    found = sorted(p.stem for p in (conf_dir() / "model").glob(f"{glob}.yaml"))
    if not found:
        raise ConfigError(f"{owner}: no conf/model/{glob}.yaml configs")
    return found


def flow(value: Any) -> str:
    """A -S value as DVC parses it (Hydra's override grammar, which reads like YAML's flow
    style): lists and mappings in flow style, strings bare."""
    if isinstance(value, list):
        return "[" + ",".join(flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return str(value)


def conf_overrides(conf: Mapping[str, Any], group: str, name: str, prefix: str = "") -> list[str]:
    """Hydra overrides (`<prefix><group>.<key>=<value>`) for the keys of `conf` (a protocol's or
    a judge study's `conf/<group>/<name>.yaml:<key>` settings) that set conf/<group>/<name>.yaml."""
    out = []
    for key, value in conf.items():
        path, field = key.split(":", 1)
        if path == f"conf/{group}/{name}.yaml":
            out.append(f"{prefix}{group}.{field}={flow(value)}")
    return out


def exp_run(name: str, pairs: Iterable[str], force: bool = False) -> list[str]:
    """`dvc exp run -n <name> [-f] -S <pair> ...`."""
    command = ["dvc", "exp", "run", "-n", name, *(["-f"] if force else [])]
    for pair in pairs:
        command += ["-S", pair]
    return command


def list_named(group: str, model: type[BaseModel], about: str, then: str) -> int:
    """The conf/<group>/ names, each with the field `about` of its config, then the line `then`."""
    for name in available(group):
        print(f"{name:16} {getattr(load_named(group, name, model), about)}")
    print(f"\n{then}")
    return 0


def check(protocol: ProtocolConfig) -> None:
    """Every name the protocol uses exists, and each dataset composes with its choices and its
    conf keys (so a misspelt key or a wrong value fails here, not in a stage)."""
    for key in protocol.conf:
        path = project_root() / key.split(":", 1)[0]
        if not path.is_file():
            raise ConfigError(f"protocol '{protocol.name}': {key}: no file {path}")
    models = protocol_models(protocol) or []
    translate_test = protocol.params.get("translate_test", [])
    translators = [f"translator={entry['translator']}" for entry in translate_test]
    check_group_overrides([*(f"model={m}" for m in models), *translators])  # names close matches
    groups = ("judge", "retriever", "embedder", "aggregate")
    chosen = {g: str(protocol.params[g]) for g in groups if g in protocol.params}
    choices = [f"{g}={name}" for g, name in chosen.items()]
    choices += [o for g, name in chosen.items() for o in conf_overrides(protocol.conf, g, name)]
    for dataset in protocol.params.get("datasets", []):
        overrides = [
            f"dataset={dataset}",
            *choices,
            *conf_overrides(protocol.conf, "dataset", dataset),
        ]
        overrides += [f"model={m}" for m in models[:1]]
        compose(overrides)  # raises ConfigError naming the bad key or name
    modes = [*protocol.params.get("variants", []), *translate_test]
    # with a k-shot entry, each dataset has a few-shot pool on disk (as the protocol sets it)
    k_shot = any(entry["shots"] > 0 for entry in modes)
    for dataset in protocol.params.get("datasets", []) if k_shot else []:
        cfg = compose([f"dataset={dataset}", *conf_overrides(protocol.conf, "dataset", dataset)])
        pool = cfg.dataset.fewshot_pool
        if pool is None or not (project_root() / pool).is_file():
            raise ConfigError(
                f"protocol '{protocol.name}': a k-shot variant needs dataset {dataset}'s "
                f"fewshot_pool, a questions file that is never evaluated (now: {pool})"
            )
    judge_model = protocol.params.get("judge_model")
    if judge_model is not None and "judge" in protocol.params:
        named = compose([f"judge={protocol.params['judge']}"]).judge.model
        if named is not None and named.name != judge_model:
            raise ConfigError(
                f"protocol '{protocol.name}': judge_model {judge_model!r} is not the model "
                f"conf/judge/{protocol.params['judge']}.yaml names ({named.name!r})"
            )


def exp_run_command(protocol: ProtocolConfig, force: bool = False) -> list[str]:
    """`dvc exp run` with `key=value` for every param the protocol sets, params.yaml keys first."""
    params = dict(protocol.params)
    models = protocol_models(protocol)
    if models is not None:
        params["models"] = models
    pairs = [f"{key}={flow(value)}" for key, value in {**params, **protocol.conf}.items()]
    return exp_run(protocol.name, pairs, force)


def run(args: argparse.Namespace) -> int:
    if args.name is None:
        return list_named("protocol", ProtocolConfig, "study", LIST_HINT)
    protocol = load_named("protocol", args.name, ProtocolConfig)
    check(protocol)
    command = exp_run_command(protocol, args.force)
    if protocol.needs:
        print(f"# first: {protocol.needs}")
    print(f"# {protocol.study}; differences: docs/fidelity.md#{protocol.fidelity}")
    print(shlex.join(command), flush=True)
    if not args.run:
        return 0
    run_exp(command, dvc_executable())
    return 0


def run_exp(command: list[str], dvc: str) -> None:
    """Run a `dvc ...` command line with the `dvc` executable in the project root; a failure
    raises ProtocolRunError naming the command (dvc's own message is printed above it)."""
    done = subprocess.run([dvc, *command[1:]], cwd=project_root(), check=False)
    if done.returncode != 0:
        raise ProtocolRunError(f"`{shlex.join(command)}` failed (exit {done.returncode})")
