"""Parakh's NoMIRACL rates as a Hugging Face `evaluate` module.

Each prediction is a model's raw output to a NoMIRACL prompt, each reference the subset its
query is in ("relevant" or "non_relevant"). Outputs are classified by Parakh's lenient parser
(or the authors' released rules, `parser="released"`) and the rates are the paper's (§2.1),
with invalid outputs left out and counted apart (Parakh's choice; the released code keeps them
in its denominators):

    hallucination_rate = FP / (FP + TN) on non-relevant queries ("answer present" there)
    error_rate         = FN / (FN + TP) on relevant queries ("I don't know" there)

A rate whose denominator is 0 is None, never 0. Load it by path:
`evaluate.load(str(parakh.evaluate_metrics.path("nomiracl")))`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import evaluate

import datasets
from parakh.config.judge import DEFAULT_PARSER, NomiraclParser
from parakh.metrics import nomiracl

_INPUTS = """
Args:
    predictions: list of str, the model outputs ("Yes, answer is present", "I don't know", or
        anything a model says; Hindi, Telugu and Bengali phrasings are understood).
    references: list of str, each "relevant" or "non_relevant": the subset of the query.
    parser: "lenient" (Parakh's, the default) or "released" (NoMIRACL's released rules).
Returns:
    hallucination_rate, error_rate, invalid_relevant_rate, invalid_non_relevant_rate (floats,
    None where a denominator is 0), and `counts`: every numerator, denominator and label count.
"""


class Nomiracl(evaluate.Metric):
    """NoMIRACL hallucination and error rates (the paper's §2.1) of raw model outputs."""

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=__doc__,
            citation="Thakur et al., NoMIRACL, Findings of EMNLP 2024",
            inputs_description=_INPUTS,
            features=datasets.Features(
                {"predictions": datasets.Value("string"), "references": datasets.Value("string")}
            ),
        )

    def _compute(
        self,
        predictions: Sequence[str],
        references: Sequence[str],
        parser: NomiraclParser = DEFAULT_PARSER,
    ) -> dict[str, Any]:
        # A missing output (None) is an empty one, "invalid", as the judge stage counts it.
        labels = [nomiracl.classify(output or "", parser) for output in predictions]
        # nomiracl_rates refuses a subset other than "relevant" / "non_relevant", naming the row.
        outcomes = [
            nomiracl.NomiraclOutcome(subset, label)  # type: ignore[arg-type]
            for subset, label in zip(references, labels, strict=True)
        ]
        result = nomiracl.nomiracl_rates(outcomes)
        return {
            "hallucination_rate": result.hallucination.value,
            "error_rate": result.error.value,
            "invalid_relevant_rate": result.invalid_relevant.value,
            "invalid_non_relevant_rate": result.invalid_non_relevant.value,
            "counts": result.model_dump(),
        }
