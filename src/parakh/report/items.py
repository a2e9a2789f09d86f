"""Per-item tables behind the leaderboard: judge rows regrouped by model, metric and question.

Statistics resample questions, not rows, so everything here is indexed by question: for each
(model, metric) series the sum and count of scored rows per question and the counts of rows
without a score, and for each slice (language, category, domain) the questions it holds. The
tables are dense numpy arrays (series x questions), filled from the columns of every row at
once (`np.bincount` adds each question's scores in reading order, so every sum is reproducible
to the last bit).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from parakh.errors import InputError
from parakh.hashing import sha256_obj
from parakh.metrics.specs import MetricSpec
from parakh.report.columns import JudgeColumns
from parakh.report.row_files import STATUSES
from parakh.stats.bootstrap import ItemScores

SliceKey = tuple[str, str]
ALL = "all"
OVERALL: SliceKey = (ALL, ALL)
UNCATEGORISED = "uncategorised"
NOT_SCORED = ("invalid", "error", "skipped")
_OK = STATUSES.index("ok")


def system_name(model: str, translator: str | None) -> str:
    """The leaderboard entry of a row: the model, or `<model> via <translator>`."""
    return model if translator in (None, "", "none") else f"{model} via {translator}"


def row_systems(columns: JudgeColumns) -> tuple[np.ndarray, list[str], set[tuple[str, str | None]]]:
    """Each row's leaderboard entry as a code into the entries' names, the names, and the
    (model, translator) pair of each entry (translator None for a direct row)."""
    width = len(columns.translators) + 1  # a pair's key: model, then translator (-1 first)
    keys = columns.model.astype(np.int64) * width + columns.translator + 1
    found, inverse = np.unique(keys, return_inverse=True)
    entries: set[tuple[str, str | None]] = set()
    names: list[str] = []
    code_of_pair = np.zeros(len(found), dtype=np.intp)
    for i, key in enumerate(found.tolist()):
        model, translator = divmod(key, width)
        translator -= 1
        name = columns.models[model]
        via = None if translator < 0 else columns.translators[translator]
        system = system_name(name, via)
        entries.add((name, None if system == name else via))
        if system not in names:
            names.append(system)
        code_of_pair[i] = names.index(system)
    return code_of_pair[np.asarray(inverse, dtype=np.intp).reshape(-1)], names, entries


@dataclass
class ItemIndex:
    questions: list[str]  # sorted question ids: the columns of every table below
    series: dict[tuple[str, str], int]  # (system, metric) -> row of sums, counts, unscored
    sums: np.ndarray  # (series, questions) sum of scored rows
    counts: np.ndarray  # (series, questions) scored rows, as floats
    unscored: np.ndarray  # (series, NOT_SCORED, questions) rows without a score
    slices: dict[SliceKey, np.ndarray]  # the questions of each slice, as a mask
    scale_max: dict[str, float]
    languages: list[str]
    categories: list[str]
    domains: list[str]
    specs: dict[str, MetricSpec] = field(default_factory=dict)  # every metric's, set by the board
    # with several samples per question: (series, questions, samples) sums and counts, each
    # sample weighing 1 / its question's scored samples (a question's mean over its samples
    # first), `sums` and `counts` their totals
    per_sample: tuple[np.ndarray, np.ndarray] | None = None
    _digests: dict[bytes, str] = field(default_factory=dict, repr=False)

    @property
    def metrics(self) -> set[str]:
        return set(self.scale_max)

    @classmethod
    def of(cls, columns: JudgeColumns, domains: Mapping[str, str | None]) -> ItemIndex:
        scale_max = _scales(columns)
        system, names, _ = row_systems(columns)
        n_questions, n_metrics = len(columns.question_ids), len(columns.metrics)
        key = (system * n_metrics + columns.metric) * n_questions + columns.question
        size = len(names) * n_metrics * n_questions
        scored = (columns.status == _OK) & columns.has_score
        sums = np.bincount(key[scored], weights=columns.score[scored], minlength=size)
        counts = np.bincount(key[scored], minlength=size).astype(float)
        unscored = np.stack(
            [
                np.bincount(key[columns.status == STATUSES.index(s)], minlength=size)
                for s in NOT_SCORED
            ]
        )
        present = (counts > 0) | unscored.any(axis=0)
        shape = (len(names) * n_metrics, n_questions)
        rows = np.flatnonzero(present.reshape(shape).any(axis=1))
        per_sample = None
        if (k := columns.samples) > 1:
            at = key[scored] * k + columns.sample[scored]
            weight = 1.0 / counts[key[scored]]
            scores = np.bincount(at, weights=columns.score[scored] * weight, minlength=size * k)
            shares = np.bincount(at, weights=weight, minlength=size * k)
            per_sample = (scores.reshape(*shape, k)[rows], shares.reshape(*shape, k)[rows])
            sums, counts = scores.reshape(size, k).sum(axis=1), (counts > 0).astype(float)
        series = {
            (names[r // n_metrics], columns.metrics[r % n_metrics]): i for i, r in enumerate(rows)
        }
        slices = _slices(columns, domains)
        values = set(slices)
        return cls(
            questions=columns.question_ids,
            series=series,
            sums=sums.reshape(shape)[rows],
            counts=counts.reshape(shape)[rows],
            unscored=np.ascontiguousarray(
                unscored.reshape(len(NOT_SCORED), *shape)[:, rows].transpose(1, 0, 2)
            ),
            slices=slices,
            scale_max=scale_max,
            languages=sorted(v for d, v in values if d == "language"),
            categories=sorted(v for d, v in values if d == "category"),
            domains=sorted(v for d, v in values if d == "domain"),
            per_sample=per_sample,
        )

    def _questions(self, systems: list[str], metrics: list[str], key: SliceKey) -> np.ndarray:
        """The (sorted) question codes of one slice where any of `systems` has a row of
        `metrics`."""
        inside = self.slices.get(key)
        if inside is None:
            return np.zeros(0, dtype=np.intp)
        found = np.zeros(len(self.questions), dtype=bool)
        for system in systems:
            for metric in metrics:
                s = self.series.get((system, metric))
                if s is not None:
                    found |= (self.counts[s] > 0) | self.unscored[s].any(axis=0)
        return np.flatnonzero(found & inside)

    def digest(self, questions: np.ndarray) -> str:
        """sha256 of the ids of `questions` (codes), computed once per distinct list: what a
        statistic's seed is derived from."""
        key = np.asarray(questions, dtype=np.intp).tobytes()
        if key not in self._digests:
            self._digests[key] = sha256_obj([self.questions[q] for q in questions.tolist()])
        return self._digests[key]

    def table(
        self, system: str, metric: str, key: SliceKey
    ) -> tuple[ItemScores, dict[str, int], str] | None:
        """The item scores of one cell, its unscored counts and the digest of its questions;
        None if it has no rows."""
        s = self.series.get((system, metric))
        if s is None:
            return None
        questions = self._questions([system], [metric], key)
        if not questions.size:
            return None
        unscored = self.unscored[s][:, questions].sum(axis=1)
        scores = ItemScores.single(self.sums[s, questions], self.counts[s, questions])
        if self.per_sample is not None:
            each = tuple(a[s, questions][:, :, None] for a in self.per_sample)
            scores = ItemScores(scores.sums, scores.counts, scores.weights, (each[0], each[1]))
        counts = {k: int(unscored[i]) for i, k in enumerate(NOT_SCORED)}
        return scores, counts, self.digest(questions)

    def _matrix(
        self,
        system: str,
        weights: dict[str, float],
        questions: np.ndarray,
        *,
        goodness: bool = True,
    ) -> ItemScores:
        """Per-question sums and counts; with `goodness`, each metric's sums are mapped to its
        0..1 goodness (min..max to 0..1, flipped when lower is better), which is linear, so
        the mean of mapped sums is the goodness of the mean."""
        metrics = list(weights)
        sums = np.zeros((len(questions), len(metrics)))
        counts = np.zeros((len(questions), len(metrics)))
        k = 1 if self.per_sample is None else self.per_sample[0].shape[2]
        each = (
            np.zeros((len(questions), k, len(metrics))),
            np.zeros((len(questions), k, len(metrics))),
        )
        for j, metric in enumerate(metrics):
            s = self.series.get((system, metric))
            if s is None:
                continue
            found: list[tuple[np.ndarray, ...]] = [(sums, counts, self.sums, self.counts)]
            if self.per_sample is not None:
                found.append((each[0], each[1], *self.per_sample))
            for to_sums, to_counts, from_sums, from_counts in found:
                total, count = from_sums[s, questions], from_counts[s, questions]
                if goodness:
                    spec = self.specs[metric]
                    total = (total - count * spec.scale_min) / (spec.scale_max - spec.scale_min)
                    if not spec.higher_is_better:
                        total = count - total
                to_sums[..., j] = total
                to_counts[..., j] = count
        chosen = np.array([weights[m] for m in metrics], dtype=float)
        return ItemScores(sums, counts, chosen, None if self.per_sample is None else each)

    def weighted_table(
        self, system: str, weights: dict[str, float], key: SliceKey
    ) -> tuple[ItemScores, str]:
        """Item scores of the weighted aggregate (each metric's 0..1 goodness) in one slice, and
        the digest of its questions."""
        questions = self._questions([system], list(weights), key)
        return self._matrix(system, weights, questions), self.digest(questions)

    def aligned(
        self, systems: list[str], weights: dict[str, float], *, goodness: bool
    ) -> tuple[dict[str, ItemScores], str]:
        """Every model's overall item scores on one shared list of questions (for ranking), and
        the digest of those questions. `goodness` False keeps a metric's own values and
        direction (one metric); True maps each metric to its 0..1 goodness, higher is better
        (the weighted aggregate)."""
        questions = self._questions(systems, list(weights), OVERALL)
        scores = {s: self._matrix(s, weights, questions, goodness=goodness) for s in systems}
        return scores, self.digest(questions)

    def per_item(
        self, system: str, weights: dict[str, float], *, goodness: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each scored question (as codes) and its value: a metric's mean on its own scale, or
        the weighted mean of the 0..1 goodness of the metrics scored on that question, for
        paired comparisons."""
        questions = self._questions([system], list(weights), OVERALL)
        scores = self._matrix(system, weights, questions, goodness=goodness)
        value = scores.of_totals(scores.sums, scores.counts)
        kept = ~np.isnan(value)
        return questions[kept], value[kept]


def sample_spread(columns: JudgeColumns) -> dict[str, dict[str, float]]:
    """Run-to-run spread with `generation.samples` > 1: by entry and metric, the share of its
    scored questions whose samples' scores are not all equal (empty with one sample)."""
    if columns.samples == 1:
        return {}
    system, names, _ = row_systems(columns)
    n_questions, n_metrics = len(columns.question_ids), len(columns.metrics)
    scored = (columns.status == _OK) & columns.has_score & ~np.isnan(columns.score)
    key = ((system * n_metrics + columns.metric) * n_questions + columns.question)[scored]
    low = np.full(len(names) * n_metrics * n_questions, np.inf)
    high = -low
    np.minimum.at(low, key, columns.score[scored])
    np.maximum.at(high, key, columns.score[scored])
    lows, highs = low.reshape(-1, n_questions), high.reshape(-1, n_questions)
    asked = np.isfinite(lows)
    spread: dict[str, dict[str, float]] = {}
    for r in np.flatnonzero(asked.any(axis=1)).tolist():
        share = float((highs[r] > lows[r]).sum() / asked[r].sum())
        spread.setdefault(names[r // n_metrics], {})[columns.metrics[r % n_metrics]] = share
    return spread


def _scales(columns: JudgeColumns) -> dict[str, float]:
    """Each metric's scale_max; a metric on two scales is an error naming its first row that
    differs from the metric's first row."""
    metrics, first = np.unique(columns.metric, return_index=True)
    known = np.zeros(len(columns.metrics))
    known[metrics] = columns.scale_max[first]
    differs = np.flatnonzero(columns.scale_max != known[columns.metric])
    if differs.size:
        row = int(differs[0])
        metric = columns.metrics[columns.metric[row]]
        question = columns.question_ids[columns.question[row]]
        raise InputError(
            "judge rows",
            f"metric '{metric}' is on two scales (0..{known[columns.metric[row]]:g} and "
            f"0..{columns.scale_max[row]:g}): question {question}, "
            f"model {columns.models[columns.model[row]]}",
            field="scale_max",
        )
    order = np.argsort(first, kind="stable")  # metrics in order of their first row
    return {columns.metrics[m]: float(known[m]) for m in metrics[order].tolist()}


def _slices(columns: JudgeColumns, domains: Mapping[str, str | None]) -> dict[SliceKey, np.ndarray]:
    """The questions of every slice: all, each language (a question's first row's), each
    category (of any of its rows; `uncategorised` when none, if any question has one), each
    domain (from the questions file)."""
    n = len(columns.question_ids)
    slices: dict[SliceKey, np.ndarray] = {OVERALL: np.ones(n, dtype=bool)}
    _, first = np.unique(columns.question, return_index=True)
    language = columns.language[first]
    for code in np.unique(language).tolist():
        slices[("language", columns.languages[code])] = language == code
    if columns.category.size:
        questions = columns.question[columns.category_row]
        categorised = np.zeros(n, dtype=bool)
        for code, name in enumerate(columns.categories):
            inside = np.zeros(n, dtype=bool)
            inside[questions[columns.category == code]] = True
            categorised |= inside
            slices[("category", name)] = inside | slices.get(("category", name), False)
        if not categorised.all():
            uncategorised = ("category", UNCATEGORISED)
            slices[uncategorised] = ~categorised | slices.get(uncategorised, False)
    domain = [domains.get(q) for q in columns.question_ids]
    for name in sorted({d for d in domain if d}):
        slices[("domain", name)] = np.array([d == name for d in domain], dtype=bool)
    return slices
