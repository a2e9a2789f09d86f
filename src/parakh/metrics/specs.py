"""What a metric's numbers mean: which way is better, the scale, and how rows aggregate.

Every metric in judge rows declares one `MetricSpec`: a reference metric as a `Metric` beside
its function, NoMIRACL's rates and `weighted` here, rubric criteria in their conf/rubric file.
Rankings, tests, colours and the weighted aggregate ask the spec (`registry.metric_spec`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Literal

from parakh.metrics.nomiracl import ERROR_METRIC, HALLUCINATION_METRIC
from parakh.schema import Generation, Question

Direction = Literal["higher", "lower"]
Aggregation = Literal["mean", "rate"]
DIRECTIONS: tuple[Direction, ...] = ("higher", "lower")
WEIGHTED = "weighted"


@dataclass(frozen=True)
class MetricSpec:
    """One metric's direction, scale and aggregation: "mean" of per-item scores, or "rate",
    each scored row a 0/1 event of its denominator (NoMIRACL's FP/(FP+TN)). `declared` is
    False for the default given to a name nobody declared."""

    name: str
    direction: Direction
    scale_min: float
    scale_max: float
    aggregation: Aggregation = "mean"
    description: str = ""
    declared: bool = True

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise ValueError(f"metric {self.name!r}: direction must be 'higher' or 'lower'")
        if self.aggregation not in ("mean", "rate"):
            raise ValueError(f"metric {self.name!r}: aggregation must be 'mean' or 'rate'")
        if not self.scale_min < self.scale_max:
            raise ValueError(
                f"metric {self.name!r}: scale_min {self.scale_min:g} must be below "
                f"scale_max {self.scale_max:g}"
            )
        if self.aggregation == "rate" and (self.scale_min, self.scale_max) != (0.0, 1.0):
            raise ValueError(f"metric {self.name!r}: a rate is on 0..1")

    @property
    def higher_is_better(self) -> bool:
        return self.direction == "higher"

    @property
    def direction_text(self) -> str:
        """ "higher is better" or "lower is better", for report headers and notes."""
        return f"{self.direction} is better"

    def unit(self, value: float) -> float:
        """`value` placed on 0..1 by the scale (min -> 0, max -> 1); direction unchanged."""
        return (value - self.scale_min) / (self.scale_max - self.scale_min)

    def goodness(self, value: float) -> float:
        """`value` on 0..1 with 1 the good end: the unit value, flipped when lower is better.

        This is what a lower-is-better metric contributes to the weighted aggregate
        (`1 - (x - min) / (max - min)`) and what colours a heatmap cell.
        """
        unit = self.unit(value)
        return unit if self.higher_is_better else 1.0 - unit

    def signed(self, value: float) -> float:
        """`value` with the sign that makes larger better (for sorting and "is A better")."""
        return value if self.higher_is_better else -value

    def better(self, a: float, b: float) -> bool:
        """Whether `a` is strictly better than `b` on this metric."""
        return self.signed(a) > self.signed(b)


MetricFn = Callable[[str, Sequence[str], "str | None"], float]


@dataclass(frozen=True, kw_only=True)
class Metric(MetricSpec):
    """A per-sample metric: its spec and `fn(prediction, references, language)`, the best score
    over the references (described by its docstring's first paragraph unless a description is
    given). Registered by entry point (group `parakh.metrics`), Parakh's own as a plugin's."""

    fn: MetricFn
    needs_reference: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.description and self.fn.__doc__:  # the function's own first paragraph
            summary = " ".join(self.fn.__doc__.strip().split("\n\n")[0].split())
            object.__setattr__(self, "description", summary)

    @property
    def spec(self) -> MetricSpec:
        """The spec alone (what reports compare and show), without the function."""
        return MetricSpec(**{f.name: getattr(self, f.name) for f in fields(MetricSpec)})


class NotApplicable(Exception):
    """Raised by a plugin judge's `fn` for an answer it does not score (a check of red-flag
    questions, on a question that names none): each of its metrics gets a `skipped` row with the
    message as the reason, counted beside the figures, never a score or an error."""


@dataclass(frozen=True)
class Verdict:
    """A plugin judge's scores with what it found: `flags` (short codes, such as
    `red_flag:chest_pain`) go on each of its scored rows and `note`, why in words, is their
    `justification`. A judge that has nothing to add returns the scores alone."""

    scores: Mapping[str, float]
    flags: tuple[str, ...] = ()
    note: str | None = None


@dataclass(frozen=True, kw_only=True)
class Judge:
    """A plugin judge (group `parakh.judges`): `fn(question, generation)` scores one answer on
    each of `metrics`, returning the scores or a `Verdict` (the scores with flags and a note).
    A metric it omits or puts off its scale is an error row, and a ValueError it raises is the
    reason of every metric's error row; `NotApplicable` makes every metric's row `skipped`, its
    message the reason."""

    name: str
    metrics: tuple[MetricSpec, ...]
    fn: Callable[[Question, Generation], Mapping[str, float] | Verdict]


def undeclared_spec(name: str, scale_max: float) -> MetricSpec:
    """The documented default for a metric nobody declared: higher is better on 0..scale_max,
    a mean of per-item scores. Reports list such metrics as undeclared."""
    return MetricSpec(
        name,
        "higher",
        0.0,
        scale_max,
        "mean",
        "undeclared metric: assumed higher is better on 0..scale_max",
        declared=False,
    )


WEIGHTED_SPEC = MetricSpec(
    WEIGHTED,
    "higher",
    0.0,
    1.0,
    "mean",
    "weighted mean of the configured metrics, each mapped to 0..1 with 1 the good end",
)


def rate_spec(name: str, description: str) -> MetricSpec:
    """A lower-is-better rate on 0..1 (each scored row a 0/1 event)."""
    return MetricSpec(name, "lower", 0.0, 1.0, "rate", description)


# The groundedness check's metrics (parakh.judging.groundedness) and the letter each sentence's
# verdict gets in its `grounded_sentences` row's `label`, which the answers page marks.
GROUNDED = "grounded_sentences"
CONTRADICTION = "contradiction"
VERDICTS = {"supported": "s", "not_supported": "n", "contradicted": "c"}

NOMIRACL = "nomiracl"
NOMIRACL_SPECS: dict[str, MetricSpec] = {
    HALLUCINATION_METRIC: rate_spec(
        HALLUCINATION_METRIC,
        "NoMIRACL hallucination rate FP / (FP + TN) on non-relevant queries "
        "(said the answer is present when no passage has it)",
    ),
    ERROR_METRIC: rate_spec(
        ERROR_METRIC,
        "NoMIRACL error rate FN / (FN + TP) on relevant queries "
        "(said 'I don't know' when a passage has the answer)",
    ),
    # a row without a subset carries the bare name; it is only ever an error row
    NOMIRACL: rate_spec(
        NOMIRACL,
        "NoMIRACL rows without a subset (error rows only; scored rows are nomiracl_hallucination "
        "or nomiracl_error)",
    ),
}
