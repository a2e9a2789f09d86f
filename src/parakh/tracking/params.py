"""MLflow params: the settings that produced the data, from the run specs the stages wrote.

Aggregate's own config holds its defaults for the other stages (`dataset.languages: None`,
`judge.sample_per_language: None`), not what curate, index, generate and judge ran with. So
each section comes from the run spec written beside the data it describes: `dataset` from
curate's, `retriever`/`embedder` from index's, `judge` from the judge run of each model,
`model`, `generation`, `prompt` and `backend_identity` from its generate run; a section falls
back to aggregate's config (or `conf/model/<name>.yaml`) only where no run spec exists, and the
`params_from` param says which sections did.

MLflow cuts nothing silently here: a value longer than its 6,000-character limit is logged
cut with a marker naming `params.json`, the artifact that then holds every value whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from parakh.config.loading import load_named
from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError
from parakh.stage_outputs import Layout, spec_path

MAX_PARAM_CHARS = 6000  # mlflow.utils.validation.MAX_PARAM_VAL_LENGTH
PARAMS_FILE = "params.json"
CUT_MARKER = f" …[cut at {MAX_PARAM_CHARS} characters; whole value in {PARAMS_FILE}]"


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Nested settings as MLflow params (`judge.model.name`), values cut to MLflow's limit
    with a marker that says so."""
    out: dict[str, str] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, f"{name}."))
        else:
            out[name] = cut(str(value))
    return out


def cut(text: str) -> str:
    if len(text) <= MAX_PARAM_CHARS:
        return text
    return text[: MAX_PARAM_CHARS - len(CUT_MARKER)] + CUT_MARKER


def cut_params(data: dict[str, Any]) -> list[str]:
    """The params of `data` MLflow would not hold whole."""
    return sorted(k for k, v in flatten(data).items() if v.endswith(CUT_MARKER))


def _spec_sections(path: Path, sections: tuple[str, ...]) -> dict[str, Any]:
    """Those of `sections` that the config in the run spec beside `path` holds."""
    spec = spec_path(path)
    if not spec.is_file():
        return {}
    config = json.loads(spec.read_text(encoding="utf-8")).get("config")
    return {s: config[s] for s in sections if isinstance(config, dict) and s in config}


def sweep_settings(cfg: ParakhConfig, layout: Layout, models: list[str]) -> dict[str, Any]:
    """The sweep run's params: dataset, retrieval, judge (of the first model with a judge run
    spec), aggregate and seed; `params_from` lists the sections taken from run specs."""
    sections = ("dataset", "retriever", "embedder", "translator", "judge", "aggregate")
    settings = {name: getattr(cfg, name).model_dump(mode="json") for name in sections}
    settings["seed"] = cfg.seed
    from_specs = []
    curated = _spec_sections(layout.curated_questions, ("dataset", "seed"))
    if "dataset" in curated:
        settings |= {"seed": cfg.seed, **curated}
        from_specs.append("dataset")
    index = _spec_sections(layout.retrieval, ("retriever", "embedder"))
    settings |= index
    from_specs += index
    for model in models:
        judged = _spec_sections(layout.judgments(cfg.judge.name, model), ("judge",))
        if judged:
            settings |= judged
            from_specs.append("judge")
            break
    settings["params_from"] = ",".join(from_specs) or "aggregate config"
    return settings


def model_settings(
    cfg: ParakhConfig, layout: Layout, sweep: dict[str, Any], model: str
) -> dict[str, Any]:
    """A model run's params: the sweep's, with this model's judge run and its generate run
    (model, generation, prompt, backend_identity)."""
    settings = {k: v for k, v in sweep.items() if k != "params_from"}
    from_specs = [s for s in str(sweep["params_from"]).split(",") if s and s != "judge"]
    judged = _spec_sections(layout.judgments(cfg.judge.name, model), ("judge",))
    settings |= judged
    from_specs += judged
    generated = _spec_sections(
        layout.generations(model), ("model", "generation", "prompt", "backend_identity")
    )
    if "model" in generated:
        settings |= generated
        from_specs.append("generate")
    else:
        try:
            settings["model"] = load_named("model", model)
        except ConfigError:
            settings["model"] = f"(no conf/model/{model}.yaml)"
    settings["params_from"] = ",".join(from_specs) or "aggregate config"
    return settings


def judge_model_name(settings: dict[str, Any]) -> str:
    """The judge model that scored the rows (`jury:<a>,<b>` for a jury), from a model run's
    params: the source of each judged assessment."""
    judge = settings.get("judge") or {}
    jury = judge.get("jury") or {}
    if jury.get("models"):
        return "jury:" + ",".join(map(str, jury["models"]))
    model = judge.get("model") or {}
    return str(model.get("name") or judge.get("name") or "judge")
