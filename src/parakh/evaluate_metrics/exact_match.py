"""Parakh's `exact_match` as an `evaluate` module: Indic-correct normalisation (vowel signs,
viramas and nuktas stay), English articles dropped only for English, unlike SQuAD's script."""

from __future__ import annotations

from parakh.evaluate_metrics import _reference


class ExactMatch(_reference.ReferenceMetricModule):
    metric_name = "exact_match"
