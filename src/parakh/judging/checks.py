"""LLM checks: judges with their own prompt and JSON schema that score an answer as a whole
(`groundedness`: each sentence against the chunks the model saw; `sufficiency`: whether those
chunks answer the question, and whether the model abstained). A judge config lists them in
`checks`; they run after the rubrics, on the same sample, chunks and judge models, through the
same cache and progress file, and write rows of their own metrics.

A check is an entry point of group `parakh.checks` (Parakh registers its own in pyproject.toml,
as a plugin package does), imported only when a run or a report uses its name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from parakh import plugins
from parakh.config.judge import JudgeConfig
from parakh.config.model import ModelConfig
from parakh.judging.llm_judge import JudgeCalls
from parakh.metrics.registry import check_metric_specs
from parakh.metrics.specs import MetricSpec
from parakh.schema import Generation, Judgment, Question, Retrieval


@dataclass(frozen=True)
class CheckInputs:
    """What a check reads for one model's answers: this run's questions (a shard's, with
    `shard=`), their answers, the knowledge base of each sampled question (`judge.chunks_from`),
    the sample (`judge.sample_per_language`; the rest get `skipped` rows), where calls go, the
    answer prompt's name (conf/prompt/) and every question of the questions file (what a check
    decides of the dataset as a whole, every shard decides alike)."""

    judge: JudgeConfig
    generator: ModelConfig
    questions: Sequence[Question]
    answers: Mapping[str, Generation]
    chunks: Mapping[str, Retrieval]
    sampled: set[str]
    calls: JudgeCalls
    answer_prompt: str = ""
    dataset: Sequence[Question] = ()


class Check(Protocol):
    """One LLM check: its metrics' specs, its rows for one model's answers (one row per question
    and metric, `skipped`, `invalid` or `error` with the reason where there is no score), and
    what the judge summary says of those rows (None: nothing). A check may name other checks'
    metrics in a tuple `compares`: their rows reach its `summarize` too."""

    name: str
    metrics: tuple[MetricSpec, ...]

    def rows(self, inputs: CheckInputs) -> Iterable[Judgment]: ...

    def summarize(self, rows: Sequence[Judgment]) -> dict[str, Any] | None: ...


def get_check(name: str) -> Check:
    """The check registered as `name` (entry-point group parakh.checks), its metrics checked."""
    check_metric_specs(name)
    check: Check = plugins.load("checks", name)
    return check


def check_metrics(names: Iterable[str]) -> list[str]:
    """The metrics the checks `names` write, in order."""
    return [spec.name for name in names for spec in check_metric_specs(name)]
