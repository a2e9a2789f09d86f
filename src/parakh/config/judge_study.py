"""Schema of conf/judge_study/*.yaml: several judges on one dataset with human grades.

A judge study runs one DVC experiment per judge on the same dataset and models (the generations
are made once and reused from the DVC cache), then `parakh judges` orders the judges by their
agreement with the dataset's human grades. `parakh judge-study <name>` prints (or runs) it.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from parakh.config.base import Strict
from parakh.config.protocol import ConfKeys


class JudgeStudyConfig(Strict):
    """Judges compared on one dataset's human grades."""

    name: str
    description: str = ""
    dataset: str = Field(description="a conf/dataset/<name>.yaml whose curate writes human grades")
    models_glob: str = Field(description="conf/model/<glob>.yaml names that make up `models`")
    judges: list[str] = Field(min_length=1, description="conf/judge names, run in this order")
    url_judges: list[str] = Field(default_factory=list, description="run with a judge URL only")
    url_model: str | None = Field(default=None, description="the conf/model the URL options set")
    conf: ConfKeys = Field(
        default_factory=dict, description="`conf/<group>/<name>.yaml:<key>` set in every run"
    )
    needs: str = Field(default="", description="what to do first (import the data)")

    @model_validator(mode="after")
    def _check(self) -> JudgeStudyConfig:
        both = sorted(set(self.judges) & set(self.url_judges))
        if both:
            raise ValueError(f"judges {both} are listed in both `judges` and `url_judges`")
        if self.url_judges and self.url_model is None:
            raise ValueError("`url_judges` need `url_model`, the model file the URL sets")
        return self
