"""Schema of conf/judge/*.yaml."""

from __future__ import annotations

from pydantic import Field

from parakh.config.base import Strict
from parakh.config.model import ModelConfig


class JudgeConfig(Strict):
    name: str
    description: str = ""
    prompt: str = Field(description="evaluator prompt in conf/prompt/")
    rubrics: list[str] = Field(default_factory=list, description="files in conf/rubric/")
    reference_metrics: list[str] = Field(default_factory=list)
    model: ModelConfig | None = None
    max_context_chars: int = 1500
    max_tokens: int = Field(default=96, ge=8, description="judge output budget per call")
    max_justification_chars: int = Field(default=120, ge=10)
    sample_per_language: int | None = Field(
        default=None,
        ge=1,
        description="LLM-judge only this many questions per language (a deterministic sample); "
        "the others get `skipped` rubric rows. None judges every question.",
    )
    smoke_test: bool = False
