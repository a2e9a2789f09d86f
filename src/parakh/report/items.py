"""Per-item tables behind the leaderboard: judge rows regrouped by model, metric and question.

Statistics resample questions, not rows, so everything here is indexed by question id: for
each (model, metric) the sum and count of scored rows per question and the counts of rows
without a score, and for each question the slices it belongs to (language, categories,
domain).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from parakh.errors import InputError
from parakh.metrics.specs import MetricSpec, undeclared_spec
from parakh.schema import Judgment
from parakh.stats.bootstrap import ItemScores

SliceKey = tuple[str, str]
ALL = "all"
OVERALL: SliceKey = (ALL, ALL)
UNCATEGORISED = "uncategorised"
NOT_SCORED = ("invalid", "error", "skipped")


def system_name(model: str, translator: str | None) -> str:
    """The leaderboard entry of a row: the model, or `<model> via <translator>`."""
    return model if translator in (None, "", "none") else f"{model} via {translator}"


@dataclass
class Series:
    """One (model, metric): per question the scored rows' sum and count, and unscored counts."""

    sums: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    not_scored: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))

    @property
    def questions(self) -> set[str]:
        return set(self.counts) | set(self.not_scored)


@dataclass
class ItemIndex:
    series: dict[tuple[str, str], Series]
    facets: dict[str, set[SliceKey]]
    scale_max: dict[str, float]
    languages: list[str]
    categories: list[str]
    domains: list[str]
    specs: dict[str, MetricSpec] = field(default_factory=dict)

    @property
    def metrics(self) -> set[str]:
        return set(self.scale_max)

    def spec(self, metric: str) -> MetricSpec:
        """The metric's spec (set by the leaderboard); the documented default if unset."""
        return self.specs.get(metric) or undeclared_spec(metric, self.scale_max.get(metric, 1.0))

    @classmethod
    def of(
        cls,
        rows: list[Judgment],
        domains: Mapping[str, str | None],
    ) -> ItemIndex:
        series: dict[tuple[str, str], Series] = defaultdict(Series)
        scale_max: dict[str, float] = {}
        languages: dict[str, str] = {}
        categories: dict[str, set[str]] = defaultdict(set)
        for r in rows:
            system = system_name(r.model, r.translator)
            known = scale_max.setdefault(r.metric, r.scale_max)
            if known != r.scale_max:
                raise InputError(
                    "judge rows",
                    f"metric '{r.metric}' is on two scales (0..{known:g} and 0..{r.scale_max:g})"
                    f": question {r.question_id}, model {r.model}",
                    field="scale_max",
                )
            s = series[(system, r.metric)]
            if r.status == "ok" and r.score is not None:
                s.sums[r.question_id] += r.score
                s.counts[r.question_id] += 1
            else:
                s.not_scored[r.question_id][r.status] += 1
            languages.setdefault(r.question_id, r.language)
            categories[r.question_id].update(r.categories)
        any_category = any(categories.values())
        facets: dict[str, set[SliceKey]] = {}
        for qid, language in languages.items():
            keys: set[SliceKey] = {(ALL, ALL), ("language", language)}
            if any_category:
                keys |= {("category", c) for c in categories[qid] or {UNCATEGORISED}}
            domain = domains.get(qid)
            if domain:
                keys.add(("domain", domain))
            facets[qid] = keys
        values = {k for keys in facets.values() for k in keys}
        return cls(
            series=dict(series),
            facets=facets,
            scale_max=scale_max,
            languages=sorted({v for d, v in values if d == "language"}),
            categories=sorted({v for d, v in values if d == "category"}),
            domains=sorted({v for d, v in values if d == "domain"}),
        )

    def _questions(self, system: str, metrics: list[str], key: SliceKey) -> list[str]:
        found: set[str] = set()
        for metric in metrics:
            s = self.series.get((system, metric))
            if s is not None:
                found |= s.questions
        return sorted(q for q in found if key in self.facets.get(q, ()))

    def table(
        self, system: str, metric: str, key: SliceKey
    ) -> tuple[ItemScores, dict[str, int], list[str]] | None:
        """The item scores of one cell, its unscored counts and its questions; None if it has
        no rows."""
        s = self.series.get((system, metric))
        questions = self._questions(system, [metric], key)
        if s is None or not questions:
            return None
        sums = np.array([s.sums.get(q, 0.0) for q in questions])
        counts = np.array([s.counts.get(q, 0) for q in questions], dtype=float)
        not_scored: Counter[str] = Counter()
        for q in questions:
            not_scored.update(s.not_scored.get(q, Counter()))
        return ItemScores.single(sums, counts), {k: not_scored[k] for k in NOT_SCORED}, questions

    def _matrix(
        self,
        system: str,
        weights: dict[str, float],
        questions: list[str],
        *,
        goodness: bool = True,
    ) -> ItemScores:
        """Per-question sums and counts; with `goodness`, each metric's sums are mapped to its
        0..1 goodness (min..max to 0..1, flipped when lower is better), which is linear, so
        the mean of mapped sums is the goodness of the mean."""
        metrics = list(weights)
        sums = np.zeros((len(questions), len(metrics)))
        counts = np.zeros((len(questions), len(metrics)))
        for j, metric in enumerate(metrics):
            s = self.series.get((system, metric))
            if s is None:
                continue
            spec = self.spec(metric)
            span = spec.scale_max - spec.scale_min
            for i, q in enumerate(questions):
                total, count = s.sums.get(q, 0.0), s.counts.get(q, 0)
                if goodness:
                    total = (total - count * spec.scale_min) / span
                    if not spec.higher_is_better:
                        total = count - total
                sums[i, j] = total
                counts[i, j] = count
        return ItemScores(sums, counts, np.array([weights[m] for m in metrics], dtype=float))

    def weighted_table(
        self, system: str, weights: dict[str, float], key: SliceKey
    ) -> tuple[ItemScores, list[str]]:
        """Item scores of the weighted aggregate (each metric's 0..1 goodness) in one slice."""
        questions = self._questions(system, list(weights), key)
        return self._matrix(system, weights, questions), questions

    def aligned(
        self, systems: list[str], weights: dict[str, float], *, goodness: bool
    ) -> dict[str, ItemScores]:
        """Every model's overall item scores on one shared list of questions (for ranking).

        `goodness` False keeps a metric's own values and direction (one metric); True maps
        each metric to its 0..1 goodness, higher is better (the weighted aggregate).
        """
        questions = sorted({q for s in systems for q in self._questions(s, list(weights), OVERALL)})
        return {s: self._matrix(s, weights, questions, goodness=goodness) for s in systems}

    def per_item(
        self, system: str, weights: dict[str, float], *, goodness: bool
    ) -> dict[str, float]:
        """Each scored question's value: a metric's mean on its own scale, or the weighted mean
        of the 0..1 goodness of the metrics scored on that question, for paired comparisons."""
        scores = self.aligned([system], weights, goodness=goodness)[system]
        with np.errstate(invalid="ignore", divide="ignore"):
            means = scores.sums / scores.counts
        present = scores.counts > 0
        weight = np.where(present, scores.weights, 0.0)
        total = weight.sum(axis=1)
        value = np.where(present, means, 0.0) @ scores.weights
        questions = sorted(self._questions(system, list(weights), OVERALL))
        return {q: float(value[i] / total[i]) for i, q in enumerate(questions) if total[i] > 0}
