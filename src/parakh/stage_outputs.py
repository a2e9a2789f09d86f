"""Where each stage writes its outputs, from the config alone (dvc.yaml names the same paths)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError
from parakh.project import resolve


class PathUnder:
    """A path attribute: `parts` under the instance's `root` (`Layout`, `ReportFiles`)."""

    def __init__(self, *parts: str) -> None:
        self.parts = parts

    def __get__(self, folder: Any, owner: object = None) -> Path:
        return Path(folder.root).joinpath(*self.parts)


@dataclass(frozen=True)
class Layout:
    processed: Path
    reports: Path  # the aggregate's folder, reports/<dataset>/<judge>/; its files: ReportFiles

    @classmethod
    def of(cls, cfg: ParakhConfig) -> Layout:
        return cls(
            processed=resolve(cfg.paths.processed) / cfg.dataset.name,
            reports=report_folder(resolve(cfg.paths.reports), cfg.dataset.name, cfg.judge.name),
        )

    curated_questions = PathUnder("curate", "questions.jsonl")
    curated_kb = PathUnder("curate", "kb.jsonl")
    curation_report = PathUnder("curate", "report.json")
    chunks = PathUnder("index", "chunks.jsonl")
    retrieval = PathUnder("index", "retrieval.jsonl")

    @property
    def root(self) -> Path:
        return self.processed

    # translate (translate-test variants only; direct inference reads curate and index)
    def translated(self, variant: str) -> Path:
        """The folder of a translate-test variant's inputs: `translate/<variant>/`."""
        return self.processed / "translate" / variant

    def asked_questions(self, variant: str) -> Path:
        """The questions as a translate-test variant asks them (English where translated),
        each keeping its `translation` record."""
        return self.translated(variant) / "questions.jsonl"

    def asked_retrieval(self, variant: str) -> Path:
        """The retrieved chunks as a translate-test variant shows them (English)."""
        return self.translated(variant) / "retrieval.jsonl"

    # generate / back-translate / judge
    def generations(self, model: str) -> Path:
        """The answers judge reads: `generate/<generation name>.jsonl` (under translate-test,
        written by the back-translate stage)."""
        return self.processed / "generate" / f"{model}.jsonl"

    def pivot_generations(self, model: str) -> Path:
        """A translate-test run's answers in English, before back-translation."""
        return self.processed / "pivot" / f"{model}.jsonl"

    def judgments(self, judge: str, model: str) -> Path:
        return self.processed / "judge" / judge / f"{model}.jsonl"

    def shard(self, output: Path, index: int, count: int) -> Path:
        """Shard `index` of `count` of a generate or judge output, under `shards/`, outside the
        stage folders that DVC and later stages hash:
        `generate/m.jsonl` -> `shards/generate/m.shard-0-of-4.jsonl`."""
        relative = output.relative_to(self.processed)
        name = f"{relative.name.rsplit('.', 1)[0]}.shard-{index}-of-{count}.jsonl"
        return self.processed / "shards" / relative.parent / name


def report_folder(reports: Path, dataset: str, judge: str) -> Path:
    """A leaderboard's folder, `reports/<dataset>/<judge>/`: one per (dataset, judge), so a
    second judge's leaderboard never overwrites the first's (dvc.yaml names the same path)."""
    return reports / dataset / judge


DIRECT = "direct"


def variant_generation_name(model: str, variant: str) -> str:
    """The generations file stem of `model` under a named variant of params.yaml: the model
    itself for `direct`, else `<model>@<variant>`."""
    return model if variant == DIRECT else f"{model}@{variant}"


def generation_name(cfg: ParakhConfig) -> str:
    """The generations file stem of a run: the model, its prompt variant, its translator.

    A run of a named variant (`generation.variant`, as dvc.yaml passes it) is
    `<model>@<variant>`, or `<model>` for `direct`, which must be direct inference with the
    dataset's prompt, zero-shot. A run without a variant name (by hand): direct inference with
    the dataset's prompt writes `<model>.jsonl`; a prompt or few-shot variant or a
    translate-test run gets its own file, so sweeps never overwrite each other.
    """
    variant = cfg.generation.variant
    if variant is not None:
        direct = (
            cfg.generation.prompt is None
            and cfg.generation.fewshot.k == 0
            and cfg.translator.kind == "none"
        )
        if variant == DIRECT and not direct:
            raise ConfigError(
                f"generation.variant={DIRECT} is direct inference with the dataset's prompt, "
                f"zero-shot, but this run sets prompt={cfg.generation.prompt}, "
                f"shots={cfg.generation.fewshot.k}, translator={cfg.translator.name}: "
                "give the variant another name in params.yaml"
            )
        return variant_generation_name(cfg.model.name, variant)
    name = cfg.generation.output_name(cfg.model.name)
    if cfg.translator.kind != "none":
        name += f"@tt-{cfg.translator.name}"
    return name


def translate_test_variant(cfg: ParakhConfig) -> str:
    """The folder name of a translate-test run's English inputs, `translate/<this>/`: the
    variant's name (`generation.variant`), else `tt-<translator>` for a run by hand."""
    return cfg.generation.variant or f"tt-{cfg.translator.name}"


def ledgers(cfg: ParakhConfig) -> Path:
    """The folder of a dataset's accounting ledgers (measured: latency, cache hits), beside the
    response cache, outside the stage outputs: `<name>.json` generate's, `judge/<judge>/<name>.json`
    judge's (`<name>`: the generations file stem)."""
    return resolve(cfg.paths.cache).parent / "accounting" / cfg.dataset.name


def spec_path(output: Path) -> Path:
    """The run spec written beside an output: `x.jsonl` -> `x.runspec.json`."""
    return output.with_name(output.name.rsplit(".", 1)[0] + ".runspec.json")


def summary_path(judgments: Path) -> Path:
    """`<model>.jsonl` -> `<model>.summary.json`, where the judge stage writes its summary."""
    return judgments.with_name(judgments.name.rsplit(".", 1)[0] + ".summary.json")
