"""Parakh's `rouge_l` as a Hugging Face `evaluate` module.

ROUGE-L F-measure through rouge-score's own scorer with Parakh's Unicode tokenizer plugged in,
so identical text scores 1 in every script (rouge-score's default tokenizer deletes every
non-Latin character and scores identical Hindi strings 0). Load it by path:
`evaluate.load(str(parakh.evaluate_metrics.path("rouge_l")))`.
"""

from __future__ import annotations

from parakh.evaluate_metrics import _reference


class RougeL(_reference.ReferenceMetricModule):
    """Parakh's `rouge_l`: the mean over predictions, each against its best reference."""

    metric_name = "rouge_l"
