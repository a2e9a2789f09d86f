"""The reference metrics by name, with the scale each one reports on."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parakh.errors import ConfigError
from parakh.metrics import lexical

ReferenceMetricFn = Callable[[str, Sequence[str], str | None], float]


@dataclass(frozen=True)
class ReferenceMetric:
    """A per-sample metric of a prediction against reference answers.

    `fn(prediction, references, language)` returns the best score over the references, on
    0..`scale_max`.
    """

    name: str
    scale_max: float
    fn: ReferenceMetricFn
    description: str


REFERENCE_METRICS: dict[str, ReferenceMetric] = {
    metric.name: metric
    for metric in (
        ReferenceMetric(
            "exact_match",
            1.0,
            lexical.exact_match,
            "SQuAD exact match after Unicode-aware answer normalisation",
        ),
        ReferenceMetric(
            "token_f1",
            1.0,
            lexical.token_f1,
            "SQuAD bag-of-tokens F1 after Unicode-aware answer normalisation",
        ),
        ReferenceMetric(
            "rouge_l",
            1.0,
            lexical.rouge_l,
            "ROUGE-L F-measure (word LCS) with a script-aware tokenizer",
        ),
        ReferenceMetric(
            "chrf", 100.0, lexical.chrf, "sacrebleu chrF: character 6-gram F-score, beta 2"
        ),
        ReferenceMetric(
            "chrf_pp",
            100.0,
            lexical.chrf_pp,
            "sacrebleu chrF++: chrF plus word unigrams and bigrams",
        ),
    )
}


def get_reference_metric(name: str) -> ReferenceMetric:
    """The metric called `name`; an unknown name raises ConfigError with the close matches."""
    if name in REFERENCE_METRICS:
        return REFERENCE_METRICS[name]
    available = sorted(REFERENCE_METRICS)
    close = difflib.get_close_matches(name, available, n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise ConfigError(f"Unknown metric '{name}'.{hint} Available: {', '.join(available)}")
