"""Parakh's `chrf` as a Hugging Face `evaluate` module.

sacrebleu's sentence chrF (0..100) on canonical Unicode, averaged over the predictions as
Parakh's leaderboard averages it (not sacrebleu's corpus-level chrF). Load it by path:
`evaluate.load(str(parakh.evaluate_metrics.path("chrf")))`.
"""

from __future__ import annotations

from parakh.evaluate_metrics import _reference


class Chrf(_reference.ReferenceMetricModule):
    """Parakh's `chrf`: the mean over predictions, each against its best reference."""

    metric_name = "chrf"
