"""Hydra config composition and validation."""

from parakh.config.loading import compose, hydra_entry, load_named, validate
from parakh.config.stage_config import ParakhConfig

__all__ = ["ParakhConfig", "compose", "hydra_entry", "load_named", "validate"]
