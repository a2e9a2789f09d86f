"""`contains_reference`: 1 when the answer holds a reference answer word for word."""

from __future__ import annotations

from collections.abc import Sequence

from parakh.metrics.specs import Metric
from parakh.text.normalize import normalize_answer


def contains_reference(prediction: str, references: Sequence[str], language: str | None) -> float:
    """1.0 if the normalised answer contains a normalised reference answer, else 0.0."""
    answer = normalize_answer(prediction, language)
    return float(any(normalize_answer(r, language) in answer for r in references))


# name (the entry point's), direction, scale_min, scale_max, aggregation; the docstring above
# is its description
CONTAINS_REFERENCE = Metric("contains_reference", "higher", 0.0, 1.0, "mean", fn=contains_reference)
