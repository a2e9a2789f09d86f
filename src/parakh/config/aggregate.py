"""Schemas of conf/aggregate/*.yaml and the tracking and paths sections."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from parakh.config.base import Strict
from parakh.config.gates import Gates
from parakh.stats.agreement import ScaleMapping


class StatisticsConfig(Strict):
    """Seeded uncertainty: the same inputs and these settings give identical intervals."""

    bootstrap_resamples: int = Field(default=1000, ge=100, le=100_000)
    confidence: float = Field(default=0.95, gt=0.5, lt=1.0)
    permutations: int = Field(default=5000, ge=100, le=1_000_000, description="sign-flip test")


class AgreementConfig(Strict):
    """Judge-human agreement on a file of `HumanGrade` rows, if one is given."""

    human_grades: str | None = Field(default=None, description="JSONL of HumanGrade rows")
    mappings: dict[str, ScaleMapping] = Field(
        default_factory=dict, description="per metric: human grades onto the judge's scale"
    )


class AggregateConfig(Strict):
    weights: dict[str, Annotated[float, Field(gt=0)]]
    primary_metric: str | None = Field(default=None, description="None: the judge's")
    statistics: StatisticsConfig = Field(default_factory=StatisticsConfig)
    agreement: AgreementConfig = Field(default_factory=AgreementConfig)
    answers_page: bool = Field(default=True, description="write the side-by-side answers page")
    weighted_scale: float = Field(
        default=1.0, gt=0, description="the weighted mean's top (2: HEALTH-PARIKSHA's AGG scale)"
    )
    allow_partial: bool = Field(
        default=False, description="missing judge rows: a partial run; false: an error"
    )
    gates: Gates = Field(default_factory=list, description="release gates (docs/gates.md)")


class TrackingConfig(Strict):
    uri: str | None = None
    experiment: str = "parakh"
    enabled: bool = Field(default=True, description="log the leaderboard to MLflow")
    genai: bool = Field(
        default=False, description="log judged answers as traces (a database-backed store)"
    )


class PathsConfig(Strict):
    processed: str = "data/processed"
    reports: str = "reports"
    cache: str = ".parakh/cache.sqlite"
