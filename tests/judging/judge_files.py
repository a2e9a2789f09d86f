"""The judge stage's `run` on the files DVC gives it, written from rows a test holds."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import yaml

from parakh.backends.base import make_backend
from parakh.backends.cache import ResponseCache
from parakh.config.model import ReplayModel
from parakh.config.stage_config import ParakhConfig
from parakh.io import write_jsonl
from parakh.judging.llm_judge import BackendFactory, JudgeCalls
from parakh.schema import Generation, Judgment, Question, Retrieval
from parakh.stages import generate, judge


def judged(
    cfg: ParakhConfig,
    questions: Sequence[Question],
    generations: Sequence[Generation],
    retrievals: Sequence[Retrieval],
    progress_path: Path,
    cache: ResponseCache | None = None,
    backend_factory: BackendFactory = make_backend,
) -> list[Judgment]:
    """`judge.run`'s rows, its inputs written as the stage's three files beside
    `progress_path` and named after it (`p.jsonl`: `p.questions.jsonl`, ...)."""
    folder, stem = progress_path.parent, progress_path.stem
    files = [folder / f"{stem}.{name}.jsonl" for name in ("questions", "generations", "retrieval")]
    for path, rows in zip(files, (questions, generations, retrievals), strict=True):
        write_jsonl(path, rows)
    inputs = judge.JudgeInputs.read(*files, samples=cfg.generation.samples)
    calls = JudgeCalls(cache, progress_path, cfg.progress, backend_factory)
    return list(judge.run(cfg, inputs, calls))


def replay_judged(
    cfg: ParakhConfig, questions: Sequence[Question], answers: Path, model_file: Path, folder: Path
) -> tuple[ReplayModel, list[Judgment]]:
    """The replay model of conf/model file `model_file`, answering from `answers` (the curated
    questions holding the stored outputs), and `judge.run`'s rows of its answers."""
    model = ReplayModel.model_validate(yaml.safe_load(model_file.read_text(encoding="utf-8")))
    model = model.model_copy(update={"answers": str(answers)})
    run_cfg = cfg.model_copy(update={"model": model})
    generations = generate.run(
        run_cfg, questions, [], make_backend(model), None, folder / f".{model.name}.g"
    ).generations
    return model, judged(run_cfg, questions, generations, [], folder / f".{model.name}.j")
