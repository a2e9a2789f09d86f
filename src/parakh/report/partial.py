"""The coverage check aggregate runs before computing anything, and how a partial run says so.

Expected rows are the run's questions x models x the metrics its judge config scores
(`parakh.metrics.registry`): the judge stage writes every one of them, `skipped`, `invalid` and
`error` rows included, so a row that is not there was never judged. Missing rows stop aggregate,
naming them and their files, unless `aggregate.allow_partial` is set; then every output carries
the marker (`PartialRun`). Duplicated rows (a mean would count them twice) and rows of questions
or metrics the run does not have stop it either way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from parakh.config.stage_config import ParakhConfig
from parakh.errors import InputError
from parakh.metrics.registry import judged_metrics, metric_slot
from parakh.report.inputs import AggregateInputs
from parakh.row_coverage import (
    Coverage,
    Key,
    Where,
    check_codes,
    duplicates_text,
    key_text,
    some_keys,
)

PARTIAL_KEY = "partial_run"  # metrics.json key of the marker (its other keys are models)
ALLOW = "aggregate.allow_partial=true"


@dataclass(frozen=True)
class PartialRun:
    """A run aggregated without some of its judge rows (`aggregate.allow_partial`)."""

    coverage: Coverage

    @property
    def missing_by_model(self) -> dict[str, int]:
        return dict(Counter(key[1] for key in self.coverage.missing))

    def marker(self) -> dict[str, Any]:
        """What the JSON outputs and MLflow carry."""
        return {
            "rows": self.coverage.covered,
            "expected_rows": self.coverage.expected,
            "missing_rows": len(self.coverage.missing),
            "missing_by_model": self.missing_by_model,
        }

    @property
    def text(self) -> str:
        """The one line every page and leaderboard shows."""
        by_model = ", ".join(f"{m} {n}" for m, n in self.missing_by_model.items())
        return (
            f"Partial run: {self.coverage.covered} of {self.coverage.expected} (question, "
            f"model, metric) judge rows ({len(self.coverage.missing)} missing: {by_model}); "
            f"every figure covers only the rows present ({ALLOW})"
        )


def _judgments_path(inputs: AggregateInputs, model: str) -> Path:
    return inputs.paths.get(f"judgments.{model}", Path(f"(judge rows of {model})"))


def judge_coverage(cfg: ParakhConfig, inputs: AggregateInputs) -> Coverage:
    """The run's judge rows against its (question, model, metric) keys: the questions file's
    questions (without one, every question some model has a row of). Read from the rows'
    columns, each key coded as (model, question, metric) numbers (`check_codes`)."""
    judged = judged_metrics(cfg.judge)
    tables = [inputs.judge_table(m, ("question_id", "metric", "sample")) for m in inputs.models]
    ids = pa.chunked_array(
        [c for t in tables for c in t.column("question_id").chunks], type=pa.string()
    )
    question_ids = list(dict.fromkeys(q.id for q in inputs.questions)) or pc.unique(ids).to_pylist()
    questions = _vocabulary(question_ids, ids)
    # a metric's slot in sample i > 0 is `<metric> sample <i>` (`generation.samples`)
    metrics = [
        m if i == 0 else f"{m} sample {i}" for i in range(cfg.generation.samples) for m in judged
    ]
    slot_of = [_slots(t.column("metric"), t.column("sample"), judged) for t in tables]
    slots = _vocabulary(list(dict.fromkeys(metrics)), pa.chunked_array(slot_of, type=pa.string()))
    models = list(dict.fromkeys(inputs.models))
    n_questions, n_slots = len(questions), len(slots)
    expected = (
        np.arange(len(models))[:, None, None] * n_questions
        + np.arange(len(question_ids))[None, :, None]
    ) * n_slots + np.arange(len(dict.fromkeys(metrics)))[None, None, :]
    codes = [
        (models.index(model) * n_questions + _indices(t.column("question_id"), questions)) * n_slots
        + _indices(slot, slots)
        for model, t, slot in zip(inputs.models, tables, slot_of, strict=True)
    ]
    paths = [_judgments_path(inputs, model) for model in inputs.models]
    place = np.repeat(np.arange(len(tables)), [t.num_rows for t in tables])
    line = np.concatenate(
        [np.zeros(0, int)]
        + [
            np.asarray(inputs.judgment_lines.get(model) or range(1, t.num_rows + 1))
            for model, t in zip(inputs.models, tables, strict=True)
        ]
    )

    def key(code: int) -> Key:
        rest, slot = divmod(code, n_slots)
        model, question = divmod(rest, n_questions)
        return (questions[question], models[model], slots[slot])

    def where(row: int) -> Where:
        return Where(paths[int(place[row])], int(line[row]))

    return check_codes(
        expected.ravel(), np.concatenate(codes or [np.zeros(0, np.int64)]), key, where
    )


def _vocabulary(known: list[str], values: pa.ChunkedArray) -> list[str]:
    """`known`, then every other value of `values` (a row of a key the run does not have)."""
    seen = set(known)
    return known + [v for v in pc.unique(values).to_pylist() if v not in seen]


def _slots(metric: pa.ChunkedArray, sample: pa.ChunkedArray, metrics: list[str]) -> pa.ChunkedArray:
    """Each row's expected metric (`metric_slot`), worked out once per distinct metric, and
    its sample after 0."""
    names = pc.unique(metric)
    filled = pa.array([metric_slot(m, metrics) for m in names.to_pylist()], pa.string())
    slot = pc.take(filled, pc.index_in(metric, value_set=names))
    if not pc.max(sample).as_py():
        return slot
    suffix = pc.if_else(
        pc.equal(sample, 0),
        "",
        pc.binary_join_element_wise(" sample ", pc.cast(sample, pa.string()), ""),
    )
    return pc.binary_join_element_wise(slot, suffix, "")


def _indices(values: pa.ChunkedArray, vocabulary: list[str]) -> np.ndarray:
    found = pc.index_in(values, value_set=pa.array(vocabulary, pa.string()))
    return np.asarray(found.to_numpy(zero_copy_only=False), dtype=np.int64)


def require_coverage(cfg: ParakhConfig, inputs: AggregateInputs) -> PartialRun | None:
    """None for a complete run; the partial run, if `aggregate.allow_partial` lets missing rows
    through; else an InputError naming the files, counts and first keys, and what to do."""
    coverage = judge_coverage(cfg, inputs)
    rerun = "re-run the judge stage for it (`dvc repro` does)"
    if coverage.duplicates:
        places = next(iter(coverage.duplicates.values()))
        raise InputError(
            places[0].path,
            f"{duplicates_text(coverage, '(question, model, metric)')}: the judge writes one "
            f"row per key, and a mean would count this one twice; {rerun}",
        )
    if coverage.unexpected:
        raise _unexpected(cfg, inputs, coverage, rerun)
    if not coverage.missing:
        return None
    if cfg.aggregate.allow_partial:
        return PartialRun(coverage)
    by_model = Counter(key[1] for key in coverage.missing)
    per_model = coverage.expected // len(inputs.models)  # every model expects the same keys
    files = "; ".join(
        f"{model}: {n} of {per_model} missing ({_judgments_path(inputs, model)})"
        for model, n in by_model.items()
    )
    first = next(iter(by_model))
    questions = inputs.paths.get("questions", "the judge rows")
    raise InputError(
        _judgments_path(inputs, first),
        f"the judge rows cover {coverage.rows_text} this run expects ({len(inputs.models)} "
        f"models x the questions of {questions} x the {len(judged_metrics(cfg.judge))} metrics "
        f"of judge '{cfg.judge.name}'): {files}. Missing (question, model, metric): "
        f"{some_keys(coverage.missing)}. Re-run the judge stage for "
        f"{', '.join(by_model)} (`dvc repro` does), or set {ALLOW} to report a partial run",
    )


def _unexpected(
    cfg: ParakhConfig, inputs: AggregateInputs, coverage: Coverage, rerun: str
) -> InputError:
    """A row whose question is not the run's or whose metric the judge does not score."""
    key, where = next(iter(coverage.unexpected.items()))
    question_id, _, metric = key
    metrics = judged_metrics(cfg.judge)
    if metric not in metrics:
        why = (
            f"metric '{metric}' is not one judge '{cfg.judge.name}' scores "
            f"({', '.join(metrics)}): the rows are another judge config's"
        )
    else:
        questions = inputs.paths.get("questions", "the questions file")
        why = f"question '{question_id}' is not in {questions}: the rows are of other questions"
    more = len(coverage.unexpected) - 1
    return InputError(
        where.path,
        f"row {key_text(key)} is not one this run has"
        + (f" (nor are {more} more)" if more else "")
        + f": {why}; {rerun}",
        line=where.line,
    )
