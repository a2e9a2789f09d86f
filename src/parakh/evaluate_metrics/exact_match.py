"""Parakh's `exact_match` as a Hugging Face `evaluate` module.

1.0 when the normalised answer equals a normalised reference. The normalisation is
Indic-correct (vowel signs, viramas and nuktas stay, both nukta spellings are one) and drops
English articles only for English, unlike the SQuAD script. Load it by path:
`evaluate.load(str(parakh.evaluate_metrics.path("exact_match")))`.
"""

from __future__ import annotations

from parakh.evaluate_metrics import _reference


class ExactMatch(_reference.ReferenceMetricModule):
    """Parakh's `exact_match`: the mean over predictions, each against its best reference."""

    metric_name = "exact_match"
