"""Parakh's `chrf` as an `evaluate` module: sacrebleu's sentence chrF (0..100) on canonical
Unicode, averaged over the predictions as the leaderboard does (not corpus-level chrF)."""

from __future__ import annotations

from parakh.evaluate_metrics import _reference


class Chrf(_reference.ReferenceMetricModule):
    metric_name = "chrf"
