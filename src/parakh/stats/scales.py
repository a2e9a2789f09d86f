"""Declared mappings between grading scales: how a human's 1-4 grade becomes a judge's 0-2.

Agreement is only meaningful on one scale. A mapping is always written down (in
`conf/aggregate/*.yaml` or a file given to `parakh agreement`), and a grade outside it is an
error, never a silent guess. Two forms:

- `table`: an explicit grade-to-grade table, e.g. LiveQA-Med `{1: 0, 2: 0, 3: 1, 4: 2}`;
- `thresholds` + `labels`: bins for continuous scores, e.g. a reference metric's 0..1 F1
  into grades: value < thresholds[0] -> labels[0], ..., value >= thresholds[-1] -> labels[-1].
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class ScaleMapping(BaseModel):
    """One declared mapping from a source scale onto a target scale."""

    model_config = ConfigDict(extra="forbid")

    applies_to: Literal["human", "judge"] = Field(
        "human", description="whose grades are mapped onto the other side's scale"
    )
    table: dict[float, float] | None = None
    thresholds: list[float] | None = None
    labels: list[float] | None = None
    description: str = ""

    @model_validator(mode="after")
    def _one_form(self) -> ScaleMapping:
        if (self.table is None) == (self.thresholds is None):
            raise ValueError("declare exactly one of `table` or `thresholds` (+ `labels`)")
        if self.thresholds is not None:
            if self.labels is None or len(self.labels) != len(self.thresholds) + 1:
                raise ValueError("`labels` needs one more entry than `thresholds`")
            if list(self.thresholds) != sorted(self.thresholds):
                raise ValueError("`thresholds` must be increasing")
        return self

    @property
    def target_labels(self) -> list[float]:
        """Every grade of the target scale, in order (for weighted kappa distances)."""
        values = self.labels if self.labels is not None else list((self.table or {}).values())
        return sorted(set(values))

    def apply(self, value: float) -> float:
        """The grade `value` maps to; a value the table does not list raises ValueError."""
        if self.table is not None:
            if float(value) not in self.table:
                listed = ", ".join(f"{k:g}" for k in sorted(self.table))
                raise ValueError(f"grade {value:g} is not in the declared mapping ({listed})")
            return self.table[float(value)]
        assert self.thresholds is not None and self.labels is not None
        return self.labels[bisect_right(self.thresholds, value)]
