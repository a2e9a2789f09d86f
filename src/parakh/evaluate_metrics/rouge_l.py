"""Parakh's `rouge_l` as an `evaluate` module: rouge-score's scorer with Parakh's Unicode
tokenizer, so identical text scores 1 in every script (rouge-score's own scores Hindi 0)."""

from __future__ import annotations

from parakh.evaluate_metrics import _reference


class RougeL(_reference.ReferenceMetricModule):
    metric_name = "rouge_l"
