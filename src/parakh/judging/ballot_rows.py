"""Judge rows from ballots: one row per (question, model, criterion), for a judge or a jury.

`judge_with_rubrics` calls each judge model of the panel (`judge_selection.make_panel`) on the
sampled answers and builds the rows from their ballots, with the injection cues found in each
response and the `context_cut` flag where a question's knowledge base was cut to fit a judge
model's window.

A single judge's row is `ok` with its score, `invalid` with the raw output and the parser's
reason, or `error` (the judge call failed, or the answer was never sent: a failed generation,
or an empty answer, see `llm_judge.not_judgeable`). A jury's row holds every juror's vote
(None where a juror gave no valid score) and is `ok` only when enough jurors voted; otherwise
it is `invalid` (or `error` when every juror's call failed), never a partial score passed off as
the jury's.

A vote is a juror's valid score; invalid outputs and failed calls are not votes. An item gets a
score only when at least `min_votes` jurors voted, so a jury never hides a broken juror behind
the others without saying so. Combinations: `mean`, `median`, `majority` (the most frequent
score; a tie has no majority and gives no score). How far the jurors agree is
`parakh.stats.agreement.jury_agreement`.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from parakh.config.judge import JudgeConfig
from parakh.config.model import ModelConfig
from parakh.judging.hardening import injection_cues
from parakh.judging.judge_context import CONTEXT_CUT
from parakh.judging.judge_selection import Panel, judge_models, make_panel
from parakh.judging.llm_judge import (
    Ballot,
    JudgeCalls,
    JudgePrompt,
    build_judge_requests,
    collect_ballots,
    judge_key,
    judge_rubrics,
    load_judge_prompt,
    not_judgeable,
)
from parakh.metrics.rubric import Rubric
from parakh.schema import Generation, Judgment, Question, Retrieval

INJECTION = "injection"
SELF_JUDGED = "self_judged"
REPAIRED = "repaired"
NOT_SAMPLED = "not in the judge's sample (judge.sample_per_language)"

Status = Literal["ok", "invalid", "error", "skipped"]
Combine = Literal["mean", "median", "majority"]


@dataclass(frozen=True)
class JuryScore:
    """The combined score, or the reason there is none."""

    score: float | None
    reason: str | None = None


def default_min_votes(jurors: int) -> int:
    """A majority of the jurors."""
    return jurors // 2 + 1


def combine_votes(votes: Sequence[float], how: Combine, min_votes: int) -> JuryScore:
    """Combine the valid votes of one item; too few votes or a tied majority give no score."""
    if len(votes) < min_votes:
        return JuryScore(None, f"{len(votes)} valid vote(s), the jury needs {min_votes}")
    if how == "mean":
        return JuryScore(statistics.fmean(votes))
    if how == "median":
        return JuryScore(float(statistics.median(votes)))
    counts = Counter(votes).most_common()
    if len(counts) > 1 and counts[0][1] == counts[1][1]:
        tied = sorted(v for v, c in counts if c == counts[0][1])
        return JuryScore(None, f"no majority: votes tie between {tied}")
    return JuryScore(float(counts[0][0]))


def ballot_problem(ballot: Ballot | None) -> tuple[Status, str]:
    """(status, reason) for a ballot without a valid verdict."""
    if ballot is None:
        return "error", "judge was not called"
    if ballot.error is not None:
        return "error", f"judge call failed: {ballot.error}"
    reason = (ballot.verdict.reason if ballot.verdict else None) or "no verdict"
    if ballot.failed_repairs:
        reason = f"{reason} (not repaired: {'; '.join(ballot.failed_repairs)})"
    return "invalid", reason


def row_fields(judge: str, question: Question, generation: Generation) -> dict[str, Any]:
    """What every judge row of one answer says of it, whatever its metric."""
    return {
        "question_id": question.id,
        "model": generation.model,
        "judge": judge,
        "language": question.language,
        "categories": question.categories,
    }


def ok_row(fields: dict[str, Any], repaired: bool, **scored: Any) -> Judgment:
    """An `ok` row, flagged `repaired` when a repair request got its verdict."""
    flags = fields.pop("flags") + ([REPAIRED] if repaired else [])
    return Judgment(**fields, flags=flags, status="ok", **scored)


def _single(base: dict[str, Any], rubric: Rubric, ballot: Ballot | None) -> list[Judgment]:
    rows = []
    for criterion in rubric.criteria_list():
        fields = {**base, "metric": criterion.name}
        if ballot is not None and ballot.valid and ballot.verdict is not None:
            rows.append(
                ok_row(
                    fields,
                    bool(ballot.repairs),
                    score=ballot.verdict.scores[criterion.name],
                    justification=ballot.verdict.justification,
                    raw_output=ballot.raw,
                )
            )
        else:
            status, reason = ballot_problem(ballot)
            raw = ballot.raw if ballot else None
            rows.append(Judgment(**fields, status=status, raw_output=raw, reason=reason))
    return rows


def _jury(
    base: dict[str, Any], rubric: Rubric, panel: Panel, ballots: Mapping[str, Ballot | None]
) -> list[Judgment]:
    assert panel.jury is not None
    jury = panel.jury
    active = panel.active
    # By default a majority of the jurors allowed to judge this model (a self-judging juror
    # that sits out does not count); an explicit `min_votes` is kept as configured.
    min_votes = jury.min_votes or default_min_votes(len(active))
    raws = {j: (b.raw if (b := ballots.get(j)) is not None else None) for j in active}
    raw = json.dumps(raws, ensure_ascii=False)
    repaired = any((b := ballots.get(j)) is not None and b.valid and b.repairs for j in active)
    rows = []
    for criterion in rubric.criteria_list():
        votes: dict[str, float | None] = {}
        problems: list[tuple[Status, str]] = []
        justifications = []
        for juror in panel.jurors:
            ballot = ballots.get(juror)
            if juror in panel.excluded:
                votes[juror] = None
                problems.append(("skipped", f"{juror}: {panel.excluded[juror]}"))
            elif ballot is not None and ballot.valid and ballot.verdict is not None:
                votes[juror] = ballot.verdict.scores[criterion.name]
                if ballot.verdict.justification:
                    justifications.append(f"{juror}: {ballot.verdict.justification}")
            else:
                votes[juror] = None
                problem, why = ballot_problem(ballot)
                problems.append((problem, f"{juror}: {why}"))
        valid = [v for v in votes.values() if v is not None]
        outcome = combine_votes(valid, jury.combine, min_votes)
        fields = {**base, "metric": criterion.name, "votes": votes, "raw_output": raw}
        if outcome.score is not None:
            justification = "\n".join(justifications) or None
            rows.append(ok_row(fields, repaired, score=outcome.score, justification=justification))
            continue
        statuses = {s for s, _ in problems if s != "skipped"}
        status: Status = "error" if statuses == {"error"} else "invalid"
        details = "; ".join(why for _, why in problems)
        reason = f"jury ({jury.combine}): {outcome.reason}" + (f" [{details}]" if details else "")
        rows.append(Judgment(**fields, status=status, reason=reason))
    return rows


def rubric_judgments(
    judge: str,
    rubric: Rubric,
    question: Question,
    generation: Generation,
    panel: Panel,
    ballots: Mapping[str, Ballot | None],
    *,
    sampled: bool = True,
    injection_cues: Sequence[str] = (),
) -> list[Judgment]:
    """The rows of one (question, rubric): one per criterion."""
    flags = [INJECTION] if injection_cues else []
    if panel.self_judging & set(panel.active):
        flags.append(SELF_JUDGED)
    base: dict[str, Any] = {
        **row_fields(judge, question, generation),
        "scale_max": float(rubric.scale.max),
        "flags": flags,
        "injection_cues": list(injection_cues),
    }

    def every_criterion(status: Status, reason: str) -> list[Judgment]:
        return [
            Judgment(**{**base, "metric": c.name}, status=status, reason=reason)
            for c in rubric.criteria_list()
        ]

    if not sampled:
        return every_criterion("skipped", NOT_SAMPLED)
    unjudged = not_judgeable(generation)
    if unjudged is not None:
        return every_criterion("error", unjudged)
    if not panel.active:
        reasons = "; ".join(f"{j}: {why}" for j, why in panel.excluded.items())
        return every_criterion("skipped", reasons)
    if panel.jury is None:
        return _single(base, rubric, ballots.get(panel.active[0]))
    return _jury(base, rubric, panel, ballots)


def judge_with_rubrics(
    cfg: JudgeConfig,
    generator: ModelConfig,
    questions: list[Question],
    generations: Mapping[str, Generation],
    retrievals: Mapping[str, Retrieval],
    sampled: set[str],
    calls: JudgeCalls,
    prompt: JudgePrompt | None = None,
    rubrics: list[Rubric] | None = None,
) -> list[Judgment]:
    """Rubric rows for every (question, criterion) of one model's answers; the judge models
    are called on the answers of `sampled` questions (`llm_judge.sample_per_language`).
    `prompt` and `rubrics` stand in for the judge config's (an LLM check's own)."""
    jurors = judge_models(cfg)
    panel = make_panel(cfg, jurors, generator)
    prompt = prompt or load_judge_prompt(cfg.prompt)
    rubrics = rubrics or judge_rubrics(cfg)
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
