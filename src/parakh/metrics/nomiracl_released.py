"""NoMIRACL's released evaluation code, reproduced: its output parser and its rates.

Source: github.com/project-miracl/nomiracl at commit 9c787da (the commit `parakh import-data
nomiracl` uses): `VanillaTemplate.postprocess` (`nomiracl/prompts/template.py`) labels an output
by plain substring tests, `ConfusionMetric.evaluate` (`nomiracl/eval/metrics.py`) turns labels
into rates, and `examples/hallucination_evaluation.py` writes its table (`released_table_row`).
Re-implemented from their rules; nothing is imported from the authors' package.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from parakh.metrics.nomiracl import (
    ANSWER_PRESENT,
    I_DONT_KNOW,
    INVALID,
    NomiraclLabel,
    NomiraclOutcome,
    Rate,
    subset_counts,
)

# The template's two answer strings, lower-cased as postprocess compares them.
_ANSWER = "yes, answer is present"
_NO_ANSWER = "i don't know"
# postprocess's citation regex with the template's passage count (10) filled in.
_CITATION = re.compile(r"\[(\d+|10)\]")


def classify_released(output: str) -> NomiraclLabel:
    """Classify `output` exactly as the released `VanillaTemplate.postprocess` does.

    The output's newlines and tabs become spaces and it is lower-cased (`str.lower`, no other
    normalisation: a curly apostrophe in "I don’t know" does not match). Then, in this order:
    1. both "yes, answer is present" and "i don't know" occur: "answer_present" if the first
       occurs more than once as a whitespace-separated word (never, for a phrase), else "invalid";
    2. "i don't know" occurs: "i_dont_know";
    3. "yes, answer is present" occurs: "answer_present";
    4. "answer is present" occurs: "answer_present";
    5. "answer is not present" occurs: "i_dont_know";
    6. a citation "[n]" occurs and the whole output is under 10 characters: "answer_present";
    7. otherwise "invalid" (an empty output too).
    The released code fails on a null output; callers count a missing output themselves.
    """
    response = output.replace("\n", " ").replace("\t", " ").lower()
    if _NO_ANSWER in response and _ANSWER in response:
        # `nomiracl.util.count_word`: whitespace tokens equal to the phrase, so never
        if sum(token == _ANSWER for token in response.split()) > 1:
            return ANSWER_PRESENT
        return INVALID  # both remaining released branches return "Invalid"
    if _NO_ANSWER in response:
        return I_DONT_KNOW
    if _ANSWER in response:
        return ANSWER_PRESENT
    if "answer is present" in response:
        return ANSWER_PRESENT
    if "answer is not present" in response:
        return I_DONT_KNOW
    if _CITATION.findall(response) and len(response) < 10:
        return ANSWER_PRESENT
    return INVALID


class ReleasedRate(Rate):
    """numerator / denominator as the released code reports it.

    `value` is what the released table shows: numerator / denominator, except 0.0 when the
    model never gave the subset's correct label (`zeroed`, see `released_code_rates`), and None
    when the subset has no outputs at all (the released script has no file to read then).
    """

    zeroed: bool = False


class ReleasedCodeRates(BaseModel):
    """The released code's hallucination, error and invalid rates for one set of outputs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hallucination: ReleasedRate
    error: ReleasedRate
    invalid_relevant: ReleasedRate
    invalid_non_relevant: ReleasedRate


def _rate(numerator: int, denominator: int, *, zeroed: bool = False) -> ReleasedRate:
    if denominator == 0:
        return ReleasedRate(numerator=0, denominator=0, value=None)
    value = 0.0 if zeroed else numerator / denominator
    return ReleasedRate(numerator=numerator, denominator=denominator, value=value, zeroed=zeroed)


def released_code_rates(released_labels: Iterable[NomiraclOutcome]) -> ReleasedCodeRates:
    """Rates of outcomes labelled by `classify_released`, as `ConfusionMetric.evaluate` gives
    them: every output of the subset is in the denominator, invalid ones included.

    hallucination = "answer present" / all outputs (non-relevant subset); error = "I don't know"
    / all outputs (relevant subset). The released code computes a subset's error rate only when
    the model gave that subset's correct label at least once ("I don't know" on non-relevant,
    "answer present" on relevant); otherwise its table shows 0.0 whatever the model said. That
    0.0 is reproduced and marked `zeroed`. A missing output should be passed as "invalid": the
    released runs stored failures as text ("Unable to generate response.") that parses so.
    """
    counts = subset_counts(released_labels)
    non_relevant, relevant = counts["non_relevant"], counts["relevant"]
    return ReleasedCodeRates(
        hallucination=_rate(
            non_relevant.answer_present, non_relevant.total, zeroed=non_relevant.i_dont_know == 0
        ),
        error=_rate(relevant.i_dont_know, relevant.total, zeroed=relevant.answer_present == 0),
        invalid_relevant=_rate(relevant.invalid, relevant.total),
        invalid_non_relevant=_rate(non_relevant.invalid, non_relevant.total),
    )


# ConfusionMetric's name for the wrong verdict on each subset, and the subset's right one.
ERROR_NAME = {"non_relevant": "Hallucination", "relevant": "Error"}
_RIGHT = {"non_relevant": I_DONT_KNOW, "relevant": ANSWER_PRESENT}
_WRONG = {"non_relevant": ANSWER_PRESENT, "relevant": I_DONT_KNOW}
RELEASED_TABLE_UNITS = (
    "percent of the model's outputs in the subset's file, rounded to 4 places, 0.0 where the "
    "released ConfusionMetric sets no value (as examples/hallucination_evaluation.py writes it)"
)


def _percent(count: int, total: int) -> float:
    """The released script's cell: `round(count / total * 100, 4)`, in that float order."""
    return round(count / total * 100, 4)


def released_table_row(subset: str, labels: Iterable[NomiraclLabel]) -> dict[str, float | int]:
    """One model's cells for one language and subset, from its outputs' `classify_released`
    labels: {"outputs", "Accuracy", "Hallucination" or "Error", "Invalid"}.

    As ConfusionMetric.evaluate: Accuracy and the error cell are set only when the model gave
    the subset's right verdict at least once (else the script writes 0.0), the error cell 0.0
    when it never gave the wrong one; Invalid whenever it gave an invalid output. ValueError on
    an unknown subset or on no outputs (the script has nothing to divide by then).
    """
    if subset not in ERROR_NAME:
        raise ValueError(f"unknown subset {subset!r}; expected one of {tuple(ERROR_NAME)}")
    outcomes = [NomiraclOutcome(subset, label) for label in labels]  # type: ignore[arg-type]
    counts = subset_counts(outcomes)[subset]
    if (total := counts.total) == 0:
        raise ValueError(f"no outputs on the {subset} subset")
    right, wrong = getattr(counts, _RIGHT[subset]), getattr(counts, _WRONG[subset])
    return {
        "outputs": total,
        "Accuracy": _percent(right, total),
        ERROR_NAME[subset]: _percent(wrong, total) if right and wrong else 0.0,
        "Invalid": _percent(counts.invalid, total) if counts.invalid else 0.0,
    }
