"""Schema of conf/judge/*.yaml."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from parakh.config.base import Strict
from parakh.config.model import ModelConfig

# NoMIRACL's output parsers (parakh.metrics.nomiracl): Parakh's own, or the released
# code's rules. Declared here, with the other judge choices, so config needs no metric code.
NomiraclParser = Literal["lenient", "released"]
DEFAULT_PARSER: NomiraclParser = "lenient"
# Where the rubric judge's knowledge base comes from (parakh.judging.judge_context).
ChunksFrom = Literal["index", "generation"]


class JuryConfig(Strict):
    """Several judge models per metric; their valid votes are combined per item."""

    models: list[str] = Field(min_length=2, description="model names in conf/model/")
    combine: Literal["mean", "median", "majority"] = "mean"
    min_votes: int | None = Field(
        default=None, ge=1, description="votes an item needs; None: a majority of those allowed"
    )

    @model_validator(mode="after")
    def _check(self) -> JuryConfig:
        if len(set(self.models)) != len(self.models):
            raise ValueError(f"jury.models names a model twice: {self.models}")
        if self.min_votes is not None and self.min_votes > len(self.models):
            raise ValueError(
                f"jury.min_votes {self.min_votes} exceeds the {len(self.models)} jurors"
            )
        return self


class JudgeConfig(Strict):
    name: str
    description: str = ""
    prompt: str = Field(description="evaluator prompt in conf/prompt/")
    rubrics: list[str] = Field(default_factory=list, description="files in conf/rubric/")
    checks: list[str] = Field(
        default_factory=list,
        description="LLM checks after the rubrics, by entry point (group parakh.checks)",
    )
    reference_metrics: list[str] = Field(
        default_factory=list, description="registry names or aliases, and plugin judges"
    )
    primary_metric: str | None = Field(
        default=None,
        pattern=r"^[a-z][a-z0-9_]*$",
        description="orders the leaderboard; None: the report's first metric, and it says so",
    )
    parser: NomiraclParser = Field(
        default=DEFAULT_PARSER,
        description="`released`: the NoMIRACL authors' substring rules (prompts/template.py)",
    )
    chunks_from: ChunksFrom = Field(
        default="index", description="`generation`: the chunks the answering model's prompt held"
    )
    model: ModelConfig | None = None
    jury: JuryConfig | None = None
    repeats: int = Field(
        default=1,
        ge=1,
        le=20,
        description="asks of `model` per rubric item, seeds seed..seed+k-1, combined by mean as "
        "a jury of copies (LLM checks ask once); their agreement is the judge's self-consistency",
    )
    allow_self_judging: bool = Field(
        default=False, description="false: a judge model does not score its own outputs"
    )
    split_criteria: bool = Field(default=False, description="a call per criterion of a rubric")
    max_repairs: int = Field(
        default=1, ge=0, le=3, description="follow-up requests per invalid output"
    )
    margin_tokens: int = Field(default=32, ge=0, description="tokens left free in the window")
    max_tokens: int = Field(default=800, ge=8, description="must hold any schema-valid output")
    max_justification_chars: int = Field(default=120, ge=10)
    sample_per_language: int | None = Field(
        default=None, ge=1, description="LLM-judge N questions per language; None: every one"
    )
    smoke_test: bool = False

    @model_validator(mode="after")
    def _one_judge_source(self) -> JudgeConfig:
        if self.model is not None and self.jury is not None:
            raise ValueError(
                "set either `model` (one judge) or `jury` (several), not both; "
                "drop the model with `~judge.model` when overriding a jury"
            )
        if self.repeats > 1 and self.model is None:
            raise ValueError(
                f"repeats={self.repeats} asks one judge `model` several times; a jury asks "
                "each of its models once (set judge.repeats=1, or name a `model`)"
            )
        return self
