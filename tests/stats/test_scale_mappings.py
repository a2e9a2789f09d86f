"""Declared scale mappings: tables and thresholds, and errors instead of guesses."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from parakh.stats.agreement import ScaleMapping


def test_table_mapping_from_yaml_style_keys() -> None:
    liveqa = ScaleMapping.model_validate({"table": {"1": 0, "2": 0, "3": 1, "4": 2}})
    assert [liveqa.apply(g) for g in (1, 2, 3, 4)] == [0, 0, 1, 2]
    assert liveqa.target_labels == [0, 1, 2]
    with pytest.raises(ValueError, match="grade 5 is not in the declared mapping"):
        liveqa.apply(5)


def test_threshold_mapping_bins_continuous_scores() -> None:
    bins = ScaleMapping(applies_to="judge", thresholds=[0.25, 0.5, 0.75], labels=[1, 2, 3, 4])
    assert [bins.apply(v) for v in (0.0, 0.2499, 0.25, 0.6, 0.75, 1.0)] == [1, 1, 2, 3, 4, 4]
    assert bins.target_labels == [1, 2, 3, 4]


@pytest.mark.parametrize(
    "spec",
    [
        {},
        {"table": {1: 0}, "thresholds": [0.5], "labels": [0, 1]},
        {"thresholds": [0.5], "labels": [0]},
        {"thresholds": [0.5, 0.2], "labels": [0, 1, 2]},
        {"table": {1: 0}, "unknown": 1},
    ],
)
def test_invalid_mappings_are_rejected(spec: dict) -> None:
    with pytest.raises(ValidationError):
        ScaleMapping.model_validate(spec)
