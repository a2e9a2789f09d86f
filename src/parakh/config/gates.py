"""Schema of `aggregate.gates`: release gates that `parakh gate` enforces (docs/gates.md).

A gate is a bound on a metric's mean (`min` for a higher-is-better metric, `max` for a
lower-is-better one), or a comparison with a baseline (`baseline_model` in the same run, by
paired tests with Holm's correction; or `baseline_report`, another run's leaderboard.json, by
intervals). Metric, model and language names are checked against the run at aggregate time.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from parakh.config.base import Strict

Names = Annotated[list[str] | None, BeforeValidator(lambda v: [v] if isinstance(v, str) else v)]


class GateConfig(Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", description="how results and CI name it")
    metric: str = Field(description="a metric of the run, or `weighted`")
    languages: Names = Field(default=None, description="None: every language and `all`")
    models: Names = Field(default=None, description="None: every model (but the baseline)")
    min: float | None = Field(default=None, description="bound: a higher-is-better metric")
    max: float | None = Field(default=None, description="bound: a lower-is-better metric")
    figure: Literal["mean", "interval"] = Field(
        default="mean", description="interval: the interval's worse end must clear the bound"
    )
    baseline_model: str | None = Field(default=None, description="paired tests against it")
    baseline_report: str | None = Field(
        default=None, description="a baseline run's leaderboard.json: interval comparison"
    )
    alpha: float = Field(default=0.05, gt=0, lt=1, description="Holm-adjusted p below: worse")

    @property
    def kind(self) -> Literal["min", "max", "not_worse"]:
        return "min" if self.min is not None else "max" if self.max is not None else "not_worse"

    @model_validator(mode="after")
    def _one_kind(self) -> GateConfig:
        baseline = self.baseline_model is not None or self.baseline_report is not None
        if (self.min is not None) + (self.max is not None) + baseline != 1:
            raise ValueError(
                f"gate '{self.name}': give one of `min`, `max` (a bound) or `baseline_model` / "
                "`baseline_report` (not worse than a baseline)"
            )
        if self.kind == "not_worse" and self.figure != "mean":
            raise ValueError(f"gate '{self.name}': `figure` applies to a `min`/`max` bound")
        return self


def _distinct(gates: list[GateConfig]) -> list[GateConfig]:
    names = [g.name for g in gates]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"gate names must be distinct: {', '.join(twice)} repeated")
    return gates


Gates = Annotated[list[GateConfig], AfterValidator(_distinct)]
