"""Judge one model's answers with rubrics: call each judge model of its panel
(`judge_selection.make_panel`) on the sampled answers, build the rows from their ballots
(`ballot_rows`), with the injection cues found in each response and the `context_cut` flag
where a question's knowledge base was cut to fit a judge model's window."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from parakh.backends.base import Backend, make_backend
from parakh.backends.cache import ResponseCache
from parakh.config.judge import JudgeConfig
from parakh.config.model import ModelConfig
from parakh.judging.ballot_rows import rubric_judgments
from parakh.judging.hardening import injection_cues
from parakh.judging.judge_context import with_context_cut_flag
from parakh.judging.judge_selection import judge_models, make_panel
from parakh.judging.llm_judge import (
    Ballot,
    build_judge_requests,
    collect_ballots,
    judge_key,
    judge_rubrics,
)
from parakh.judging.prompt import JudgePrompt, load_judge_prompt
from parakh.metrics.rubric import Rubric
from parakh.schema import Generation, Judgment, Question, Retrieval

BackendFactory = Callable[[ModelConfig], Backend]


@dataclass(frozen=True)
class JudgeCalls:
    """Where a run's judge-model calls go: the response cache, the progress file they resume
    from, whether a progress bar shows, and what makes each judge model's backend (tests pass
    deterministic fakes)."""

    cache: ResponseCache | None
    progress_path: Path
    show_progress: bool = True
    backend_factory: BackendFactory = make_backend

    def progress_of(self, juror: str, jury: bool) -> Path:
        """Each juror resumes from its own progress file; a single judge uses the stage's."""
        path = self.progress_path
        return path.with_name(f"{path.stem}.{juror}{path.suffix}") if jury else path


@dataclass(frozen=True)
class _Judging:
    """What every judge model's calls on one model's answers share."""

    cfg: JudgeConfig
    generator: ModelConfig
    prompt: JudgePrompt
    rubrics: list[Rubric]
    calls: JudgeCalls


def judge_with_rubrics(
    cfg: JudgeConfig,
    generator: ModelConfig,
    questions: list[Question],
    generations: Mapping[str, Generation],
    retrievals: Mapping[str, Retrieval],
    sampled: set[str],
    calls: JudgeCalls,
) -> list[Judgment]:
    """Rubric rows for every (question, criterion) of one model's answers; the judge models
    are called on the answers of `sampled` questions (`llm_judge.sample_per_language`)."""
    jurors = judge_models(cfg)
    panel = make_panel(cfg, jurors, generator)
    run = _Judging(cfg, generator, load_judge_prompt(cfg.prompt), judge_rubrics(cfg), calls)
    to_judge = [q for q in questions if q.id in sampled]
    ballots: dict[str, dict[str, Ballot]] = {}
    context_cut: set[str] = set()  # questions whose knowledge base some juror saw cut
    for juror in jurors:
        if juror.name in panel.excluded:
            continue
        backend = calls.backend_factory(juror)
        try:
            ballots[juror.name], cuts = _juror_ballots(
                run, juror, backend, to_judge, generations, retrievals
            )
        finally:
            backend.close()
        context_cut.update(cuts)
    rows: list[Judgment] = []
    for q in questions:
        generation = generations[q.id]
        cues = injection_cues(generation.response)
        for rubric in run.rubrics:
            key = judge_key(q.id, rubric.name)
            votes = {j: ballots.get(j, {}).get(key) for j in panel.active}
            rows += rubric_judgments(
                cfg.name,
                rubric,
                q,
                generation,
                panel,
                votes,
                sampled=q.id in sampled,
                injection_cues=cues,
            )
    return [with_context_cut_flag(r) if r.question_id in context_cut else r for r in rows]


def _juror_ballots(
    run: _Judging,
    juror: ModelConfig,
    backend: Backend,
    to_judge: list[Question],
    generations: Mapping[str, Generation],
    retrievals: Mapping[str, Retrieval],
) -> tuple[dict[str, Ballot], set[str]]:
    """One judge model's ballots on the sampled answers, and the questions whose knowledge
    base was cut to fit its window."""
    cfg = run.cfg
    rubric_of = {judge_key(q.id, r.name): r for q in to_judge for r in run.rubrics}
    requests, cuts = build_judge_requests(
        cfg,
        run.prompt,
        run.rubrics,
        to_judge,
        generations,
        retrievals,
        juror.sampling.model_copy(update={"max_tokens": cfg.max_tokens}),
        judge_model=juror,
        count_tokens=backend.count_tokens,
    )
    ballots = collect_ballots(
        cfg,
        backend,
        requests,
        rubric_of,
        run.calls.cache,
        run.calls.progress_of(juror.name, cfg.jury is not None),
        description=f"judge {run.generator.name} ({juror.name})",
        show_progress=run.calls.show_progress,
    )
    return ballots, set(cuts)
