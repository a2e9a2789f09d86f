"""Judge one model's answers with rubrics: call each judge model of its panel, build the rows.

The panel is the judge's model or jury less any self-judging judge model
(`judge_selection.make_panel`); each of its judge models is called on the sampled answers (a
jury's jurors each resume from their own progress file), and the rows are built from their
ballots (`ballot_rows`). Every response is screened for judge-directed content
(`hardening.injection_cues`) and its rows carry what was found. Rows of a question whose
knowledge base was cut to fit a judge model's window carry the `context_cut` flag.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from parakh.backends.base import Backend, make_backend
from parakh.backends.cache import ResponseCache
from parakh.config.judge import JudgeConfig
from parakh.config.model import ModelConfig
from parakh.judging.ballot_rows import rubric_judgments
from parakh.judging.hardening import injection_cues
from parakh.judging.judge_context import with_context_cut_flag
from parakh.judging.judge_selection import Panel, judge_models, make_panel
from parakh.judging.llm_judge import (
    Ballot,
    build_judge_requests,
    collect_ballots,
    judge_key,
    judge_rubrics,
    request_sampling,
    sample_per_language,
)
from parakh.judging.prompt import JudgePrompt, load_judge_prompt
from parakh.metrics.rubric import Rubric
from parakh.schema import Generation, Judgment, Question, Retrieval

BackendFactory = Callable[[ModelConfig], Backend]


def juror_progress_path(progress_path: Path, juror: str, jury: bool) -> Path:
    """Each juror resumes from its own progress file; a single judge uses the stage's."""
    if not jury:
        return progress_path
    return progress_path.with_name(f"{progress_path.stem}.{juror}{progress_path.suffix}")


def judge_with_rubrics(
    cfg: JudgeConfig,
    generator: ModelConfig,
    questions: list[Question],
    generations: Mapping[str, Generation],
    retrievals: Mapping[str, Retrieval],
    progress_path: Path,
    cache: ResponseCache | None = None,
    *,
    seed: int = 0,
    show_progress: bool = True,
    backend_factory: BackendFactory | None = None,
    population: list[Question] | None = None,
) -> list[Judgment]:
    """Rubric rows for every (question, criterion) of one model's answers.

    `backend_factory` makes each judge model's backend (default `make_backend`; tests pass
    deterministic fakes). `population` (default `questions`) is what the per-language sample
    is drawn from: a shard passes the whole dataset, so it samples as a single run does."""
    backend_factory = backend_factory or make_backend
    rubrics = judge_rubrics(cfg)
    jurors = judge_models(cfg)
    panel = make_panel(cfg, jurors, generator)
    sampled = sample_per_language(population or questions, cfg.sample_per_language, seed)
    prompt = load_judge_prompt(cfg.prompt)
    to_judge = [q for q in questions if q.id in sampled]
    ballots: dict[str, dict[str, Ballot]] = {}
    context_cut: set[str] = set()  # questions whose knowledge base some juror saw cut
    for juror in jurors:
        if juror.name in panel.excluded:
            continue
        backend = backend_factory(juror)
        try:
            ballots[juror.name], cuts = _juror_ballots(
                cfg,
                juror,
                backend,
                generator,
                prompt,
                rubrics,
                to_judge,
                generations,
                retrievals,
                cache,
                progress_path,
                show_progress,
            )
        finally:
            backend.close()
        context_cut.update(cuts)
    rows = _rubric_rows(cfg, rubrics, questions, generations, panel, ballots, sampled)
    return [with_context_cut_flag(r) if r.question_id in context_cut else r for r in rows]


def _juror_ballots(
    cfg: JudgeConfig,
    juror: ModelConfig,
    backend: Backend,
    generator: ModelConfig,
    prompt: JudgePrompt,
    rubrics: list[Rubric],
    to_judge: list[Question],
    generations: Mapping[str, Generation],
    retrievals: Mapping[str, Retrieval],
    cache: ResponseCache | None,
    progress_path: Path,
    show_progress: bool,
) -> tuple[dict[str, Ballot], set[str]]:
    """One judge model's ballots on the sampled answers, and the questions whose knowledge
    base was cut to fit its window."""
    rubric_of = {judge_key(q.id, r.name): r for q in to_judge for r in rubrics}
    requests, cuts = build_judge_requests(
        cfg,
        prompt,
        rubrics,
        to_judge,
        generations,
        retrievals,
        request_sampling(cfg, juror.sampling),
        judge_model=juror,
        count_tokens=backend.count_tokens,
    )
    ballots = collect_ballots(
        backend,
        requests,
        rubric_of,
        cache,
        juror_progress_path(progress_path, juror.name, cfg.jury is not None),
        cfg.max_repairs,
        description=f"judge {generator.name} ({juror.name})",
        show_progress=show_progress,
        max_justification_chars=cfg.max_justification_chars,
    )
    return ballots, set(cuts)


def _rubric_rows(
    cfg: JudgeConfig,
    rubrics: list[Rubric],
    questions: list[Question],
    generations: Mapping[str, Generation],
    panel: Panel,
    ballots: dict[str, dict[str, Ballot]],
    sampled: set[str],
) -> list[Judgment]:
    """Every (question, criterion) row from the active jurors' ballots (None where missing)."""
    rows: list[Judgment] = []
    for q in questions:
        generation = generations[q.id]
        cues = injection_cues(generation.response)
        for rubric in rubrics:
            key = judge_key(q.id, rubric.name)
            rows += rubric_judgments(
                cfg.name,
                rubric,
                q,
                generation,
                panel,
                {juror: ballots.get(juror, {}).get(key) for juror in panel.active},
                sampled=q.id in sampled,
                injection_cues=cues,
            )
    return rows
