"""Parakh's results as pandas DataFrames: leaderboards, per-sample judge rows, questions.

For notebooks and analysis by hand. It reads what the pipeline wrote, where the config says
it is (`Layout`, `ReportFiles`: the paths dvc.yaml names), and computes nothing: means,
intervals and ranks are the `aggregate` stage's, read back from its files. The project is the
one every stage uses (PARAKH_ROOT, else the folder above the working directory that holds
conf/config.yaml); `judge=None` is the judge of conf/config.yaml.

    from parakh import results

    board = results.leaderboard("demo")            # every cell of leaderboard.json
    board[board.metric == board.attrs["primary_metric"]]
    rows = results.samples("demo", model="smollm2")  # one row per (question, model, metric)
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pandas as pd

from parakh.config import compose
from parakh.config.stage_config import ParakhConfig
from parakh.errors import InputError
from parakh.io import read_jsonl
from parakh.project import resolve
from parakh.report.aggregate_result import (
    AGREEMENT_METRICS,
    COST_METRICS,
    GATES_METRICS,
    SAMPLE_SPREAD_METRICS,
)
from parakh.report.files import ReportFiles, read_leaderboard
from parakh.report.inputs import AggregateInputs, models_to_aggregate
from parakh.report.partial import PARTIAL_KEY
from parakh.report.tables import CSV_FIELDS
from parakh.schema import Judgment, Question
from parakh.stage_outputs import Layout

__all__ = [
    "config",
    "leaderboard",
    "metrics",
    "paired",
    "questions",
    "ranks",
    "report_files",
    "samples",
]

# metrics.json's keys that are sections, not models
SECTIONS = (AGREEMENT_METRICS, PARTIAL_KEY, COST_METRICS, GATES_METRICS, SAMPLE_SPREAD_METRICS)
_MAKE_LEADERBOARD = "run `dvc repro` or the aggregate stage (python -m parakh.stages.aggregate)"
# leaderboard.json's keys a DataFrame of the leaderboard carries in `attrs`.
_BOARD_ATTRS = ("primary_metric", "primary_direction", "primary_note", "partial")
_PAIRED_ORDER = (
    "metric",
    "model_a",
    "model_b",
    "n",
    "mean_a",
    "mean_b",
    "difference",
    "ci_low",
    "ci_high",
    "p_value",
    "p_holm",
    "better",
)


def config(dataset: str = "demo", judge: str | None = None) -> ParakhConfig:
    """The composed config of `dataset` (and `judge`, else conf/config.yaml's)."""
    return compose([f"dataset={dataset}"] + ([f"judge={judge}"] if judge else []))


def report_files(dataset: str = "demo", judge: str | None = None) -> ReportFiles:
    """The aggregate's files for (dataset, judge): reports/<dataset>/<judge>/..."""
    return ReportFiles(Layout.of(config(dataset, judge)).reports)


def _frame(dataset: str, judge: str | None, table: str, first: Sequence[str]) -> pd.DataFrame:
    """leaderboard.json's `table`; its keys are sorted, so the columns `first` come first."""
    cfg = config(dataset, judge)
    reports = resolve(cfg.paths.reports)
    document = read_leaderboard(reports, cfg.dataset.name, cfg.judge.name, _MAKE_LEADERBOARD)
    frame = pd.DataFrame.from_records(document[table])
    leading = [c for c in first if c in frame.columns]
    frame = frame[leading + [c for c in frame.columns if c not in leading]]
    frame.attrs.update({k: document[k] for k in _BOARD_ATTRS if k in document})
    return frame


def leaderboard(dataset: str = "demo", judge: str | None = None) -> pd.DataFrame:
    """Every cell of the published leaderboard (leaderboard.json; leaderboard.csv's rows and
    columns, less each model's cost and latency: `costs` in leaderboard.json).

    One row per (model, metric, dimension, value): dimension `all` (value `all`), `language`,
    `category` or `domain`; `mean` on the metric's scale, `percent` of it, the interval
    (`ci_low`, `ci_high`), `n` scored rows and the `invalid`, `errors` and `skipped` ones, the
    scale and `direction` (higher or lower is better). `attrs` holds `primary_metric` and
    `primary_direction` (and `partial` for a run aggregated before it was complete).
    ConfigError naming the command to run when the aggregate stage has not written it.
    """
    return _frame(dataset, judge, "cells", CSV_FIELDS)


def ranks(dataset: str = "demo", judge: str | None = None) -> pd.DataFrame:
    """Each model's rank per metric with its bootstrap rank interval (`rank_low`, `rank_high`)."""
    return _frame(dataset, judge, "ranks", ("metric", "model", "rank", "rank_low", "rank_high"))


def paired(dataset: str = "demo", judge: str | None = None) -> pd.DataFrame:
    """Paired differences between models per metric on their shared questions: the means,
    difference, interval, p-value and Holm-adjusted p-value, and which model is `better`."""
    return _frame(dataset, judge, "paired", _PAIRED_ORDER)


def metrics(dataset: str = "demo", judge: str | None = None) -> pd.DataFrame:
    """The DVC metrics file (metrics.json) in long form: model, metric, language, mean.

    `language` is `all` for the whole dataset. The file holds the leaderboard's overall and
    per-language means only; `leaderboard` has every cell with its interval.
    """
    path = report_files(dataset, judge).metrics_json
    if not path.is_file():
        raise InputError(path, f"no metrics file: {_MAKE_LEADERBOARD}")
    document = json.loads(path.read_text(encoding="utf-8"))
    rows = [
        {"model": model, "metric": metric, "language": language, "mean": mean}
        for model, by_metric in document.items()
        if model not in SECTIONS
        for metric, by_language in by_metric.items()
        for language, mean in by_language.items()
    ]
    return pd.DataFrame(rows, columns=["model", "metric", "language", "mean"])


def samples(
    dataset: str = "demo",
    model: str | Sequence[str] | None = None,
    judge: str | None = None,
) -> pd.DataFrame:
    """The judge rows: one per (question, model, metric), with its status, score, scale,
    justification, raw judge output, reason, label and flags (the `Judgment` fields).

    `model` is one model (its generations name, e.g. `smollm2` or `smollm2@tt-nllb`), several,
    or None for every model the aggregate stage reads (params.yaml's models and variants). A
    model with no judge file is an InputError naming the stage to run; a malformed row, an
    InputError naming its file and line (read as the aggregate stage reads them).
    """
    cfg = config(dataset, judge)
    if model is None:
        models = models_to_aggregate(cfg)
    else:
        models = [model] if isinstance(model, str) else list(model)
    inputs = AggregateInputs.load(Layout.of(cfg), cfg.judge.name, models, with_generations=False)
    rows = [{**row.model_dump(), "sample": row.sample} for row in inputs.rows]  # 0 is left out
    return pd.DataFrame(rows, columns=list(Judgment.model_fields))


def questions(dataset: str = "demo") -> pd.DataFrame:
    """The curated questions (curate/questions.jsonl): id, text, language, categories, domain,
    reference answers and the rest of the `Question` fields, one row per question."""
    path = Layout.of(config(dataset)).curated_questions
    if not path.is_file():
        raise InputError(path, "no curated questions: run `dvc repro` or the curate stage")
    rows = [q.model_dump() for q in read_jsonl(path, Question)]
    return pd.DataFrame(rows, columns=list(Question.model_fields))
