"""The `evaluate` module shape shared by Parakh's reference metrics (EM, F1, ROUGE-L, chrF).

A subclass names a metric of `parakh.metrics.registry`; `compute` scores each prediction
against its references with that metric's function (best reference wins, as in the judge
stage) and returns the mean, on the metric's own scale (0..1, chrF 0..100). Not a module to
load: `evaluate.load` takes the per-metric files beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import evaluate

import datasets
from parakh.metrics.registry import get_reference_metric

_INPUTS = """
Args:
    predictions: list of str, the model answers.
    references: list of str, or list of lists of str (several gold answers per question;
        the best-scoring one counts).
    language: None, one ISO 639 code for all, or one per prediction (e.g. "hi"). Exact match
        and F1 drop English articles only when the language is English; ROUGE-L and chrF
        ignore it.
Returns:
    {<metric name>: the mean over the predictions}; an empty prediction scores 0.
"""

_CITATION = """@misc{parakh,
  title = {Parakh: evaluating LLMs as RAG answerers on multilingual Indic questions},
  note = {parakh.metrics}
}
"""


class ReferenceMetricModule(evaluate.Metric):
    """An `evaluate.Metric` over one `parakh.metrics.registry` reference metric."""

    metric_name: ClassVar[str] = ""

    def _info(self) -> evaluate.MetricInfo:
        metric = get_reference_metric(self.metric_name)
        return evaluate.MetricInfo(
            description=f"Parakh {metric.name}: {metric.description} "
            f"(scale {metric.scale_min:g}..{metric.scale_max:g}, mean over predictions).",
            citation=_CITATION,
            inputs_description=_INPUTS,
            features=[  # several references per prediction, or one
                datasets.Features({"predictions": datasets.Value("string"), "references": refs})
                for refs in (datasets.Sequence(datasets.Value("string")), datasets.Value("string"))
            ],
        )

    def _compute(
        self,
        predictions: Sequence[str],
        references: Sequence[str | Sequence[str]],
        language: str | Sequence[str | None] | None = None,
    ) -> dict[str, Any]:
        metric = get_reference_metric(self.metric_name)
        count = len(predictions)
        if language is None or isinstance(language, str):
            language = [language] * count
        elif len(language) != count:
            raise ValueError(f"language has {len(language)} entries for {count} predictions")
        scores = [
            metric.fn(prediction, [refs] if isinstance(refs, str) else list(refs), lang)
            for prediction, refs, lang in zip(predictions, references, language, strict=True)
        ]
        if not scores:
            raise ValueError(f"{metric.name}: no predictions to score")
        return {metric.name: sum(scores) / len(scores)}
