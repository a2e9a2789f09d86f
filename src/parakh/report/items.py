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

    @property
    def metrics(self) -> set[str]:
        return set(self.scale_max)

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

    def _matrix(self, system: str, weights: dict[str, float], questions: list[str]) -> ItemScores:
        metrics = list(weights)
        sums = np.zeros((len(questions), len(metrics)))
        counts = np.zeros((len(questions), len(metrics)))
        for j, metric in enumerate(metrics):
            s = self.series.get((system, metric))
            if s is None:
                continue
            for i, q in enumerate(questions):
                sums[i, j] = s.sums.get(q, 0.0) / self.scale_max[metric]
                counts[i, j] = s.counts.get(q, 0)
        return ItemScores(sums, counts, np.array([weights[m] for m in metrics], dtype=float))

    def weighted_table(
        self, system: str, weights: dict[str, float], key: SliceKey
    ) -> tuple[ItemScores, list[str]]:
        """Item scores of the weighted aggregate (each metric scaled to 0..1) in one slice."""
        questions = self._questions(system, list(weights), key)
        return self._matrix(system, weights, questions), questions

    def aligned(self, systems: list[str], weights: dict[str, float]) -> dict[str, ItemScores]:
        """Every model's overall item scores on one shared list of questions (for ranking).

        A single metric (weight 1) keeps its own scale; several are scaled to 0..1.
        """
        questions = sorted({q for s in systems for q in self._questions(s, list(weights), OVERALL)})
        tables = {s: self._matrix(s, weights, questions) for s in systems}
        if len(weights) == 1:
            (metric,) = weights
            factor = self.scale_max.get(metric, 1.0)
            tables = {
                s: ItemScores(t.sums * factor, t.counts, t.weights) for s, t in tables.items()
            }
        return tables

    def per_item(self, system: str, weights: dict[str, float]) -> dict[str, float]:
        """Each scored question's value: a metric's mean, or the weighted mean of the metrics
        scored on that question (each scaled to 0..1), for paired comparisons."""
        scores = self.aligned([system], weights)[system]
        with np.errstate(invalid="ignore", divide="ignore"):
            means = scores.sums / scores.counts
        present = scores.counts > 0
        weight = np.where(present, scores.weights, 0.0)
        total = weight.sum(axis=1)
        value = np.where(present, means, 0.0) @ scores.weights
        questions = sorted(self._questions(system, list(weights), OVERALL))
        return {q: float(value[i] / total[i]) for i, q in enumerate(questions) if total[i] > 0}
