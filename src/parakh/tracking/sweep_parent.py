"""A Hydra callback: one MLflow parent run for a multirun sweep whose jobs log on their own.

When a sweep whose jobs log (`generation.log_mlflow=true`) starts, on any launcher, this
creates its parent run and exports the id as PARAKH_MLFLOW_PARENT_RUN_ID for every job to tag
its run with. An id already in the environment (an outer driver made the parent) is kept.
"""

from __future__ import annotations

import os
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig

from parakh.tracking.client import PARENT_RUN_ENV, end_parent_run, start_parent_run, tracking_uri


def jobs_log_to_mlflow(config: DictConfig) -> bool:
    tracking = config.get("tracking") or {}
    generation = config.get("generation") or {}
    return bool(tracking.get("enabled", True) and generation.get("log_mlflow", False))


class SweepParentRun(Callback):
    def __init__(self) -> None:
        self.uri: str | None = None
        self.run_id: str | None = None

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        if os.environ.get(PARENT_RUN_ENV) or not jobs_log_to_mlflow(config):
            return
        overrides = list(config.hydra.overrides.task)
        self.uri = tracking_uri(config.tracking.get("uri"))
        self.run_id = start_parent_run(
            self.uri,
            str(config.tracking.experiment),
            name=f"sweep {config.hydra.job.name}",
            tags={"parakh.sweep.overrides": " ".join(overrides)[:5000]},
        )
        os.environ[PARENT_RUN_ENV] = self.run_id

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        if self.run_id is None or self.uri is None:
            return
        end_parent_run(self.uri, self.run_id)
        os.environ.pop(PARENT_RUN_ENV, None)
        self.run_id = None
