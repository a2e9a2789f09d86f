"""Schema of conf/generation/*.yaml: how the generate stage builds prompts for every model.

`prompt` overrides the dataset's prompt (a sweep can range over prompt variants), `fewshot`
adds k examples drawn deterministically from a file of questions that is never evaluated,
and context is truncated to each model's window, with the truncation recorded per item.
`samples: k` asks each question k times, sample i with the model's seed + i (its
temperature as configured), each sample cached and judged apart. `max_failed_share` says
when a run whose requests failed is a failed stage (a non-zero exit, so `dvc repro` does not
record it), not a finished one full of error rows.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BeforeValidator, Field

from parakh.config.base import Strict


class FewShotConfig(Strict):
    k: int = Field(default=0, ge=0, description="examples per prompt (0: zero-shot)")
    path: str | None = Field(default=None, description="questions JSONL, never evaluated")
    same_language: bool = Field(default=True, description="the question's language first")
    seed: int = 0


class GenerationConfig(Strict):
    name: str = "default"
    variant: str | None = Field(
        default=None, pattern=r"^[A-Za-z0-9_.-]+$", description="the params.yaml variant run"
    )
    # DVC writes a params.yaml `null` into a stage command as `None`: read as null.
    prompt: Annotated[str | None, BeforeValidator(lambda v: None if v == "None" else v)] = Field(
        default=None, description="null: the dataset's `prompt`"
    )
    fewshot: FewShotConfig = Field(default_factory=FewShotConfig)
    truncate_context: bool = Field(default=True, description="cut context to fit the window")
    margin_tokens: int = Field(default=32, ge=0, description="kept free for chat-template markup")
    log_mlflow: bool = Field(default=False, description="log the run's accounting to MLflow")
    max_failed_share: float = Field(
        default=0.5, ge=0, le=1, description="more errors than this: a non-zero exit"
    )
    # left out of a dump when 1: the run specs of a run of one sample stay as they were
    samples: int = Field(
        default=1, ge=1, exclude_if=lambda v: v == 1, description="answers per question"
    )

    def output_name(self, model: str) -> str:
        """The generations file stem: the model name, plus the variant when not the default.

        Sweeping prompt variants or shot counts must not overwrite one another's outputs.
        """
        if self.prompt is None and self.fewshot.k == 0:
            return model
        variant = f"{self.prompt or 'dataset-prompt'}.{self.fewshot.k}shot"
        return f"{model}@{re.sub(r'[^A-Za-z0-9_.-]', '-', variant)}"
