"""Judge one model's answers with rubrics: call each judge model of its panel
(`judge_selection.make_panel`) on the sampled answers, build the rows from their ballots
(`ballot_rows`), with the injection cues found in each response and the `context_cut` flag
where a question's knowledge base was cut to fit a judge model's window."""

from __future__ import annotations

from collections.abc import Mapping

from parakh.config.judge import JudgeConfig
from parakh.config.model import ModelConfig
from parakh.judging.ballot_rows import rubric_judgments
from parakh.judging.hardening import injection_cues
from parakh.judging.judge_context import CONTEXT_CUT
from parakh.judging.judge_selection import judge_models, make_panel
from parakh.judging.llm_judge import (
    Ballot,
    JudgeCalls,
    build_judge_requests,
    collect_ballots,
    judge_key,
    judge_rubrics,
)
from parakh.judging.prompt import load_judge_prompt
from parakh.schema import Generation, Judgment, Question, Retrieval


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
    prompt, rubrics = load_judge_prompt(cfg.prompt), judge_rubrics(cfg)
    to_judge = [q for q in questions if q.id in sampled]
    rubric_of = {judge_key(q.id, r.name): r for q in to_judge for r in rubrics}
    ballots: dict[str, dict[str, Ballot]] = {}
    context_cut: set[str] = set()  # questions whose knowledge base some juror saw cut
    for juror in (j for j in jurors if j.name not in panel.excluded):
        backend = calls.backend_factory(juror)
        try:
            requests, cut = build_judge_requests(
                cfg, prompt, rubrics, juror, backend.count_tokens, to_judge, generations, retrievals
            )
            description = f"judge {generator.name} ({juror.name})"
            ballots[juror.name] = collect_ballots(
                cfg, backend, requests, rubric_of, calls, juror.name, description
            )
        finally:
            backend.close()
        context_cut |= cut
    rows: list[Judgment] = []
    for q in questions:
        generation = generations[q.id]
        cues = injection_cues(generation.response)
        for rubric in rubrics:
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
    return [
        r.model_copy(update={"flags": [*r.flags, CONTEXT_CUT]})
        if r.question_id in context_cut
        else r
        for r in rows
    ]
