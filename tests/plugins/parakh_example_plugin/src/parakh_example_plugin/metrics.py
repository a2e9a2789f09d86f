"""`contains_reference`: 1 when the answer holds a reference answer word for word."""

from __future__ import annotations

from collections.abc import Sequence

from parakh.metrics.specs import Metric
from parakh.text.normalize import normalize_answer


def contains_reference(prediction: str, references: Sequence[str], language: str | None) -> float:
    answer = normalize_answer(prediction, language)
    return float(any(normalize_answer(r, language) in answer for r in references))


CONTAINS_REFERENCE = Metric(
    "contains_reference",  # the entry point's name
    "higher",  # direction
    0.0,  # scale_min
    1.0,  # scale_max
    "mean",  # aggregation
    "1 if the normalised answer contains a normalised reference answer",
    fn=contains_reference,
)
