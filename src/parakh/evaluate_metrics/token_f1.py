"""Parakh's `token_f1` as an `evaluate` module: SQuAD's bag-of-tokens F1 after the same
Indic-correct normalisation as `exact_match`."""

from __future__ import annotations

from parakh.evaluate_metrics import _reference


class TokenF1(_reference.ReferenceMetricModule):
    metric_name = "token_f1"
