"""Schema of conf/judge/*.yaml."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from parakh.config.base import Strict
from parakh.config.model import ModelConfig

# NoMIRACL's output parsers (parakh.metrics.nomiracl_parsers): Parakh's own, or the released
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
        default=None,
        ge=1,
        description="valid votes an item needs for a score; None: a majority of the jurors "
        "allowed to judge the model (a self-judging juror that sits out does not count)",
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
    reference_metrics: list[str] = Field(
        default_factory=list,
        description="reference metrics by registry name or alias (parakh.metrics.registry) and "
        "plugin judges (parakh.judges); `nomiracl` adds the NoMIRACL verdict rows",
    )
    primary_metric: str | None = Field(
        default=None,
        pattern=r"^[a-z][a-z0-9_]*$",
        description="the metric that orders this judge's leaderboard, in the direction its "
        "MetricSpec declares (nomiracl_hallucination: lowest first); `aggregate.primary_metric` "
        "overrides it. None: the report falls back to its first metric and says so",
    )
    parser: NomiraclParser = Field(
        default=DEFAULT_PARSER,
        description="how the `nomiracl` reference metric reads a verdict: `lenient` (Parakh's "
        "classifier: Indic phrasings, curly quotes, rationales) or `released` (the NoMIRACL "
        "authors' released substring rules, nomiracl/prompts/template.py); the summary reports "
        "both parsers' rates and how many outputs they disagree on",
    )
    chunks_from: ChunksFrom = Field(
        default="index",
        description="the knowledge base a rubric judge reads: `index`, the question's chunks in "
        "index/retrieval.jsonl; `generation`, the chunks the answering model's prompt held, "
        "read from its row in the generations file (cut or left out as that model saw them)",
    )
    model: ModelConfig | None = None
    jury: JuryConfig | None = None
    allow_self_judging: bool = Field(
        default=False,
        description="let a judge model score its own outputs (rows are flagged self_judged); "
        "false: it is left out for that model (with a jury the others judge; alone, the rows "
        "are skipped)",
    )
    split_criteria: bool = Field(
        default=False,
        description="judge each criterion of a multi-criterion rubric in its own call",
    )
    max_repairs: int = Field(
        default=1,
        ge=0,
        le=3,
        description="follow-up requests per invalid output, quoting the reason; the final "
        "output is still parsed strictly",
    )
    margin_tokens: int = Field(
        default=32,
        ge=0,
        description="tokens left free in the judge model's window beside the prompt and "
        "max_tokens (chat-template markers, tokenizer drift)",
    )
    max_tokens: int = Field(
        default=800,
        ge=8,
        description="judge output budget per call; must hold any schema-valid output",
    )
    max_justification_chars: int = Field(default=120, ge=10)
    sample_per_language: int | None = Field(
        default=None,
        ge=1,
        description="LLM-judge only this many questions per language (a deterministic sample); "
        "the others get `skipped` rubric rows. None judges every question.",
    )
    smoke_test: bool = False

    @model_validator(mode="after")
    def _one_judge_source(self) -> JudgeConfig:
        if self.model is not None and self.jury is not None:
            raise ValueError(
                "set either `model` (one judge) or `jury` (several), not both; "
                "drop the model with `~judge.model` when overriding a jury"
            )
        return self
