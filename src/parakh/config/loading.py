"""Compose the Hydra config, check names against what exists, and validate it with pydantic."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml
from omegaconf import DictConfig, OmegaConf
from pydantic import BaseModel, ValidationError

from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError, did_you_mean, first_field_error, reported_as_errors
from parakh.project import conf_dir, project_root

GROUPS = (
    "dataset",
    "model",
    "embedder",
    "retriever",
    "translator",
    "judge",
    "aggregate",
    "generation",
)


def available(group: str) -> list[str]:
    folder = conf_dir() / group
    if not folder.is_dir():
        return []
    # `_base.yaml` and other `_` files hold shared defaults, not selectable configs.
    return sorted(p.stem for p in folder.glob("*.yaml") if not p.stem.startswith("_"))


def unknown_name_message(kind: str, name: str, options: Sequence[str]) -> str:
    hint = did_you_mean(name, options)
    return f"Unknown {kind} '{name}'.{hint} Available: {', '.join(options) or '(none)'}"


def check_group_overrides(overrides: Sequence[str]) -> None:
    """Fail early, with close matches, on `model=nope` style overrides naming no config file."""
    for override in overrides:
        key, sep, value = override.partition("=")
        key = key.lstrip("+~")
        if not sep or key not in GROUPS:
            continue
        options = available(key)
        for name in value.split(","):
            name = name.strip()
            if name and name not in options:
                raise ConfigError(unknown_name_message(key, name, options))


def validate(cfg: DictConfig | dict[str, Any]) -> ParakhConfig:
    """Validate a composed config, naming the offending key and, where known, the group file it
    is read from (an override on the command line may have set it)."""
    data: Any = cfg
    hydra: Any = cfg.get("hydra")
    if isinstance(cfg, DictConfig):  # composed outside an app: its run-time keys do not resolve
        hydra = {"runtime": {"choices": dict(cfg.hydra.runtime.choices)}} if hydra else None
        kept = OmegaConf.masked_copy(cfg, [str(k) for k in cfg if k != "hydra"])
        data = OmegaConf.to_container(kept, resolve=True)
    choices = _group_choices(hydra)
    try:
        return ParakhConfig.model_validate({k: v for k, v in data.items() if k != "hydra"})
    except ValidationError as e:
        lines = []
        for err in e.errors()[:5]:
            unknown = err["type"] == "extra_forbidden"
            msg = "unknown key (not in the schema)" if unknown else err["msg"]
            group = str(err["loc"][0]) if err["loc"] else ""
            source = f" (conf/{group}/{choices[group]}.yaml)" if group in choices else ""
            lines.append(f"  {'.'.join(str(p) for p in err['loc'])}: {msg}{source}")
        raise ConfigError("invalid configuration:\n" + "\n".join(lines)) from e


def _group_choices(hydra_node: Any) -> dict[str, str]:
    """{group: the name chosen} of this composition (`model: smollm2`), from the Hydra app
    running or from a config composed with its hydra node; {} when neither is known."""
    if isinstance(hydra_node, dict):
        return {k: v for k, v in hydra_node.get("runtime", {}).get("choices", {}).items() if v}
    from hydra.core.hydra_config import HydraConfig

    if not HydraConfig.initialized():
        return {}
    return {k: v for k, v in HydraConfig.get().runtime.choices.items() if isinstance(v, str)}


def compose(overrides: Sequence[str] = ()) -> ParakhConfig:
    """Compose and validate the config without running a Hydra app (for tests and the CLI)."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    check_group_overrides(overrides)
    with initialize_config_dir(config_dir=str(conf_dir()), version_base="1.3"):
        cfg = hydra_compose(
            config_name="config", overrides=list(overrides), return_hydra_config=True
        )
    return validate(cfg)


def load_named(group: str, name: str, model: type[BaseModel] | None = None) -> Any:
    """Load conf/<group>/<name>.yaml as data (rubrics, prompts), with close matches if absent."""
    path: Path = conf_dir() / group / f"{name}.yaml"
    if not path.is_file():
        raise ConfigError(unknown_name_message(group, name, available(group)))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if model is None:
        return data
    try:
        return model.model_validate(data)
    except ValidationError as e:
        field, message = first_field_error(e)
        raise ConfigError(f"{path}: field '{field}': {message}") from e


def hydra_entry(task: Callable[[ParakhConfig], None]) -> Callable[[], None]:
    """A stage's main as a Hydra app (a single run or a `-m` sweep): composes conf/, validates
    it, prints errors cleanly."""
    import hydra

    def main() -> None:
        from parakh.config.dvc_run import check_dvc_run, pin_project_root_to_stage_folder
        from parakh.config.stage_help import HELP_FLAGS, print_stage_help_and_exit

        pin_project_root_to_stage_folder()  # under DVC: the stage's folder, e.g. a queued exp's
        if HELP_FLAGS & set(sys.argv[1:]):  # this stage's reads, writes and keys, not Hydra's dump
            with reported_as_errors():
                print_stage_help_and_exit(_stage_name(task))
        with reported_as_errors():
            check_group_overrides([a for a in sys.argv[1:] if not a.startswith("-")])
        if not any(a.startswith("hydra.job.name=") for a in sys.argv[1:]):
            # Hydra names the job after the file holding @hydra.main (this one); the stage's
            # name is what SLURM job names, sweep parent runs and Hydra's help should show.
            sys.argv.append(f"hydra.job.name={_stage_name(task)}")

        @hydra.main(config_path=str(conf_dir()), config_name="config", version_base="1.3")
        def _app(cfg: DictConfig) -> None:
            with reported_as_errors():
                config = validate(cfg)
                judge = config.judge
                jurors: list[str] = []
                if _stage_name(task) == "judge" and (judge.rubrics or judge.checks):
                    jurors = (
                        judge.jury.models if judge.jury else [m.name for m in [judge.model] if m]
                    )
                check_dvc_run(config.models, project_root(), jurors)  # params.yaml, conf/ agree
                task(config)

        _app()

    return main


def _stage_name(task: Callable[..., object]) -> str:
    """`generate` for parakh.stages.generate, also when it runs as `python -m` (`__main__`)."""
    module = task.__module__
    if module == "__main__":
        spec = getattr(sys.modules["__main__"], "__spec__", None)
        module = spec.name if spec is not None else Path(sys.argv[0]).stem
    return module.rsplit(".", 1)[-1]
