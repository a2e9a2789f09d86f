"""The config of one stage run (`ParakhConfig`): every Hydra config group's schema, composed.

Each group's schema lives in its own module (`config.model`, `config.judge`, ...); every class
rejects unknown keys.
"""

from __future__ import annotations

from pydantic import Field

from parakh.config.aggregate import AggregateConfig, PathsConfig, TrackingConfig
from parakh.config.base import Strict
from parakh.config.dataset import DatasetConfig
from parakh.config.generation import GenerationConfig
from parakh.config.judge import JudgeConfig
from parakh.config.model import ModelConfig
from parakh.config.retrieval import EmbedderConfig, RetrieverConfig
from parakh.config.translator import TranslatorConfig


class ParakhConfig(Strict):
    """The whole composed config of one stage run."""

    dataset: DatasetConfig
    model: ModelConfig
    embedder: EmbedderConfig
    retriever: RetrieverConfig
    translator: TranslatorConfig
    judge: JudgeConfig
    aggregate: AggregateConfig
    generation: GenerationConfig = Field(default_factory=GenerationConfig)
    models: list[str] | None = Field(
        default=None, description="models to aggregate; None: the `models` list of params.yaml"
    )
    seed: int = 0
    paths: PathsConfig = Field(default_factory=PathsConfig)
    tracking: TrackingConfig = Field(default_factory=TrackingConfig)
    progress: bool = True
    shard: int | None = Field(
        default=None, ge=0, description="generate/judge only shard i of num_shards (parakh.scale)"
    )
    num_shards: int | None = Field(default=None, ge=1, description="null: unsharded")
