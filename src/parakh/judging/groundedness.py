"""The `groundedness` check (parakh.judging.checks): not built yet."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from parakh.errors import ConfigError
from parakh.judging.checks import CheckInputs
from parakh.metrics.specs import MetricSpec
from parakh.schema import Judgment


@dataclass(frozen=True)
class _Pending:
    name: str = "groundedness"
    metrics: tuple[MetricSpec, ...] = ()

    def rows(self, inputs: CheckInputs) -> Iterable[Judgment]:
        raise ConfigError(f"the {self.name} check is not built yet")

    def summarize(self, rows: Sequence[Judgment]) -> dict[str, Any] | None:
        return None


CHECK = _Pending()
