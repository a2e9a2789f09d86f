"""The per-sample metrics by name (entry-point group `parakh.metrics`, plus `nomiracl`), their
short aliases (`em`, `f1`, `rougeL`, `chrf++`, ...), and `metric_spec` for any name in judge rows.

`judged_metrics` are the metrics a judge config writes a row of for every question (a failure is
an `error` or `skipped` row, never no row), and `metric_slot` which of them a row fills:
`nomiracl` is one slot, filled by the verdict metric of the question's subset.
`parakh.row_coverage` expects exactly these rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from parakh import plugins
from parakh.config.judge import JudgeConfig
from parakh.errors import ConfigError, did_you_mean
from parakh.metrics.nomiracl import METRIC_OF_SUBSET
from parakh.metrics.specs import (
    NOMIRACL,
    NOMIRACL_SPECS,
    WEIGHTED,
    WEIGHTED_SPEC,
    Judge,
    Metric,
    MetricSpec,
    undeclared_spec,
)

if TYPE_CHECKING:
    from parakh.metrics.rubric import Rubric

_T = TypeVar("_T", Judge, Metric)
NOMIRACL_METRICS = frozenset({NOMIRACL, *METRIC_OF_SUBSET.values()})

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
    """Every name a metric list may hold (registered metrics and judges, not aliases)."""
    return sorted([*plugins.names("metrics"), *plugins.names("judges"), NOMIRACL])


def is_judge(name: str) -> bool:
    """Whether `name` (a resolved name) is a plugin judge rather than a metric."""
    return plugins.is_registered("judges", name)


def resolve_metric_name(name: str) -> str:
    """The registered name for a name or alias (case-insensitive); ConfigError if unknown."""
    key = name.strip()
    for candidate in (key, key.casefold()):
        if (
            candidate == NOMIRACL
            or plugins.is_registered("metrics", candidate)
            or is_judge(candidate)
        ):
            return candidate
    folded = key.casefold()
    if folded in ALIASES:
        return ALIASES[folded]
    available = metric_names()
    hint = did_you_mean(  # an alias is shown as the name it stands for
        folded, [*available, *ALIASES], shown=lambda m: repr(ALIASES.get(m, m))
    )
    raise ConfigError(
        f"Unknown metric '{name}'.{hint} Available: {', '.join(available)}. A metric of "
        "another package is found once that package is installed (entry-point group "
        "parakh.metrics): `pip install` it"
    )


def get_reference_metric(name: str) -> Metric:
    """The metric called `name` (or an alias of it); ConfigError with the close matches."""
    resolved = resolve_metric_name(name)
    if resolved == NOMIRACL or is_judge(resolved):
        raise ConfigError(f"'{name}' is not a reference metric; score it with parakh.metrics")
    return _registered_metric(resolved)


@cache
def get_judge(name: str) -> Judge:
    """The plugin judge registered as `name` (entry-point group parakh.judges)."""
    return _loaded("judges", name, Judge)


@cache
def check_metric_specs(name: str) -> tuple[MetricSpec, ...]:
    """The specs of the metrics the LLM check `name` writes (entry-point group parakh.checks;
    the check itself is `parakh.judging.checks.get_check`)."""
    found = plugins.load("checks", name)
    specs = getattr(found, "metrics", None)
    if getattr(found, "name", None) != name or not (
        isinstance(specs, tuple) and all(isinstance(s, MetricSpec) for s in specs)
    ):
        raise ConfigError(
            f"the entry point '{name}' of group parakh.checks is {found!r}, not a check named "
            f"'{name}' with a tuple of MetricSpec `metrics` (parakh.judging.checks.Check)"
        )
    return specs


@cache
def _registered_metric(name: str) -> Metric:
    return _loaded("metrics", name, Metric)


def _loaded(kind: plugins.Kind, name: str, cls: type[_T]) -> _T:
    """The entry point `name` of group parakh.<kind>, checked to be a `cls` of that name."""
    found = plugins.load(kind, name)
    if not isinstance(found, cls) or getattr(found, "name", None) != name:
        raise ConfigError(
            f"the entry point '{name}' of group parakh.{kind} is {found!r}, not a "
            f"parakh.metrics.specs.{cls.__name__} named '{name}'"
        )
    return found


def judged_metrics(judge: JudgeConfig) -> list[str]:
    """Reference metrics (registry names, aliases resolved; a plugin judge's metrics in its
    place), then rubric criteria, then the checks' metrics, as the judge stage writes them;
    each appears once."""
    from parakh.metrics.rubric import load_rubric  # rubric files: loaded only when asked

    names = []
    for name in map(resolve_metric_name, judge.reference_metrics):
        names += [s.name for s in get_judge(name).metrics] if is_judge(name) else [name]
    names += [metric for rubric in judge.rubrics for metric in load_rubric(rubric).metrics]
    names += [spec.name for name in judge.checks for spec in check_metric_specs(name)]
    return list(dict.fromkeys(names))


def metric_slot(metric: str, metrics: list[str]) -> str:
    """The expected metric a row of `metric` fills: `nomiracl` for its verdict metrics."""
    return NOMIRACL if metric in NOMIRACL_METRICS and NOMIRACL in metrics else metric


def reference_metrics() -> dict[str, Metric]:
    """Every installed reference metric by name: Parakh's own and those of plugins."""
    return {name: _registered_metric(name) for name in plugins.names("metrics")}


def rubric_specs(rubrics: Sequence[Rubric] | None = None) -> dict[str, MetricSpec]:
    """Specs of every rubric criterion, by metric name; None: every file in conf/rubric/."""
    if rubrics is None:
        from parakh.config.loading import available
        from parakh.metrics.rubric import load_rubric

        rubrics = [load_rubric(name) for name in available("rubric")]
    found: dict[str, tuple[MetricSpec, str]] = {}  # the first spec of a name and its rubric
    for rubric in rubrics:
        for spec in rubric.metric_specs():
            known, owner = found.setdefault(spec.name, (spec, rubric.name))
            if (known.direction, known.scale_min, known.scale_max) != (
                spec.direction,
                spec.scale_min,
                spec.scale_max,
            ):
                raise ConfigError(
                    f"metric '{spec.name}' is declared twice with different directions or "
                    f"scales: rubric '{owner}' and rubric '{rubric.name}'"
                )
    return {name: spec for name, (spec, _) in found.items()}


def declared_specs(rubrics: Sequence[Rubric] | None = None) -> dict[str, MetricSpec]:
    """Every declared metric spec: reference metrics, NoMIRACL, the checks' metrics, rubric
    criteria, `weighted`."""
    specs = {name: metric.spec for name, metric in reference_metrics().items()}
    specs.update((s.name, s) for j in plugins.names("judges") for s in get_judge(j).metrics)
    specs.update(NOMIRACL_SPECS)
    specs.update((s.name, s) for c in plugins.names("checks") for s in check_metric_specs(c))
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
    """The spec of a metric name in judge rows (or an alias); rubric criteria from `rubrics`
    (None: all of conf/rubric/). A name nobody declares is a ConfigError naming the close
    matches, or with `default_scale_max` the default `undeclared_spec`."""
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
