"""Schemas of conf/aggregate/*.yaml and the tracking and paths sections."""

from __future__ import annotations

from parakh.config.base import Strict


class AggregateConfig(Strict):
    weights: dict[str, float]
    primary_metric: str = "weighted"


class TrackingConfig(Strict):
    uri: str | None = None
    experiment: str = "parakh"


class PathsConfig(Strict):
    processed: str = "data/processed"
    reports: str = "reports"
    cache: str = ".parakh/cache.sqlite"
