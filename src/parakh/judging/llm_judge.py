"""Rubric LLM judging: requests (one per question and rubric), bounded repair, ballots.

Requests are ordered question-major with the shared prompt prefix first, so a local judge
reuses its KV cache across the rubrics of one sample. Each request carries the rubric's JSON
schema (constrained decoding where the backend supports it). An output that does not parse gets
at most `max_repairs` follow-up requests quoting the reason; what finally comes back is parsed
by the same strict parser, so a repair can make an output valid but never invents a score.

The response reaches the judge only inside a delimited block of the evaluator prompt, escaped
so that it can neither close the block nor carry anything the parser would read as a verdict:
angle brackets, curly braces and backticks become look-alike characters. A judge that copies
the response into its answer therefore copies no JSON object and no code fence; the only
verdict the parser can find is the one the judge wrote itself.

`metric_json` gives the rubric as HEALTH-PARIKSHA's evaluator received each metric (its
Appendix C): a JSON object with Name, Description and Scoring, each level's criteria keyed
(a), (b), (c) in order.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from string import ascii_lowercase
from typing import Any, Protocol

from parakh.backends.accounting import ItemAccount
from parakh.backends.base import Backend, ChatRequest, Completion, make_backend
from parakh.backends.cache import ResponseCache
from parakh.backends.runner import run_requests
from parakh.config.base import Strict
from parakh.config.judge import JudgeConfig
from parakh.config.loading import load_named
from parakh.config.model import ModelConfig
from parakh.curation.slices import per_language_mask
from parakh.errors import ConfigError
from parakh.judging.judge_context import fit_knowledge_base
from parakh.judging.judge_selection import jury_of
from parakh.judging.parse import Verdict, parse_verdict
from parakh.metrics.rubric import Rubric, load_rubric
from parakh.prompts.builder import PER_TURN_TOKENS, TokenCounter
from parakh.schema import Generation, Question, Retrieval

REPAIR_MESSAGE = (
    "Your reply could not be used: {reason}. Reply again with only this JSON object and "
    "nothing else: {output_format}"
)


EMPTY_ANSWER = "empty answer: the model returned no text, so there is nothing to judge"


BackendFactory = Callable[[ModelConfig], Backend]


@dataclass(frozen=True)
class JudgeCalls:
    """Where a run's judge-model calls go: the response cache, the progress file they resume
    from, whether a progress bar shows, and what makes each judge model's backend (tests pass
    deterministic fakes). `accounts` gathers each judge model's calls (`send`), repairs
    included."""

    cache: ResponseCache | None
    progress_path: Path
    show_progress: bool = True
    backend_factory: BackendFactory = make_backend
    accounts: dict[str, list[ItemAccount]] = field(default_factory=dict)

    def send(
        self,
        backend: Backend,
        juror: str,
        requests: Sequence[ChatRequest],
        progress: Path,
        label: str,
    ) -> dict[str, dict[str, Any]]:
        """{key: {text, error, tokens, latency, cached}} of `juror`'s requests, through the cache
        and the `progress` file (`run_requests`), each call counted in `accounts`."""
        rows = run_requests(
            backend, requests, self.cache, progress, _completion_row, label, self.show_progress
        )
        self.accounts.setdefault(juror, []).extend(_account(k, r) for k, r in rows.items())
        return rows


def judge_key(question_id: str, rubric: str) -> str:
    return f"{question_id}::{rubric}"


def not_judgeable(generation: Generation) -> str | None:
    """Why a generation is not sent to a judge model (None: it is).

    A failed generation has no answer; an empty or blank one gives a judge nothing to read, and
    whatever it said about it would be a score of the judge's own making. Either way the rows
    say why, with status `error`, counted beside the mean and never as a zero."""
    if generation.status != "ok" or generation.response is None:
        return f"generation error: {generation.error or 'no response'}"
    if not generation.response.strip():
        return EMPTY_ANSWER
    return None


def sample_per_language(questions: list[Question], per_language: int | None, seed: int) -> set[str]:
    """Ids of a deterministic sample of `per_language` questions per language (all if None),
    ranked by seed as curate's per-language slices are."""
    if per_language is None:
        return {q.id for q in questions}
    keep = per_language_mask(questions, per_language, seed)
    return {q.id for q, kept in zip(questions, keep, strict=True) if kept}


def judge_rubrics(cfg: JudgeConfig) -> list[Rubric]:
    """The rubrics judged in one call each (split per criterion if configured), checked:
    metric names unique, and `max_tokens` large enough for any schema-valid output."""
    rubrics: list[Rubric] = []
    for name in cfg.rubrics:
        rubric = load_rubric(name)
        rubrics += rubric.split() if cfg.split_criteria else [rubric]
    metrics = [m for r in rubrics for m in r.metrics]
    duplicates = sorted({m for m in metrics if metrics.count(m) > 1})
    if duplicates:
        raise ConfigError(f"judge '{cfg.name}': rubrics score the same metric twice: {duplicates}")
    for rubric in rubrics:
        needed = rubric.max_output_tokens(cfg.max_justification_chars)
        if cfg.max_tokens < needed:
            fix = f"Raise judge.max_tokens to {needed}"
            if rubric.justification:
                fix += " or lower judge.max_justification_chars"
            raise ConfigError(
                f"judge '{cfg.name}': max_tokens {cfg.max_tokens} can cut off a valid answer to "
                f"rubric '{rubric.name}', whose schema admits outputs of up to {needed} tokens. "
                f"{fix}."
            )
    return rubrics


# Look-alikes that NFKC does not fold back (fullwidth braces would be): ‹ › ❴ ❵ ˋ
_BLOCK_ESCAPES = str.maketrans("<>{}`", "\u2039\u203a\u2774\u2775\u02cb")


class JudgePrompt(Strict):
    """An evaluator prompt (conf/prompt/judge_*.yaml).

    `system` and `user` are format strings over: knowledge_base, question, response,
    reference_block, metric_json, criteria, output_format, scale_min, scale_max.
    `reference_block` is a format string over `reference`, used only for rubrics that read the
    reference answer.
    """

    name: str
    system: str
    user: str
    reference_block: str


def load_judge_prompt(name: str) -> JudgePrompt:
    prompt: JudgePrompt = load_named("prompt", name, JudgePrompt)
    return prompt


def escape_block(text: str) -> str:
    """Neutralise what could close a prompt block or pass for a verdict (tags, JSON, fences)."""
    return text.translate(_BLOCK_ESCAPES)


def metric_json(rubric: Rubric) -> str:
    """The rubric as one JSON object: Name, Description, and Scoring with each level's criteria
    keyed "(a)", "(b)", ... (a level written as one text stays one string)."""
    scoring: dict[str, str | dict[str, str]] = {}
    for score, level in sorted(rubric.scoring.items()):
        if isinstance(level, str):
            scoring[str(score)] = level
        else:
            scoring[str(score)] = {f"({ascii_lowercase[i]})": c for i, c in enumerate(level)}
    metric = {"Name": rubric.title, "Description": rubric.description, "Scoring": scoring}
    return json.dumps(metric, ensure_ascii=False)


def render_judge_messages(
    prompt: JudgePrompt,
    rubric: Rubric,
    *,
    question: str,
    response: str,
    reference: str | None,
    knowledge_base: str,
) -> tuple[tuple[str, str], ...]:
    reference_block = ""
    if rubric.uses_reference and reference:
        reference_block = prompt.reference_block.format(reference=escape_block(reference))
    values = {
        "knowledge_base": escape_block(knowledge_base),
        "question": escape_block(question),
        "response": escape_block(response),
        "reference_block": reference_block,
        "metric_json": metric_json(rubric),
        "criteria": rubric.criteria_text(),
        "output_format": rubric.output_format(),
        "scale_min": str(rubric.scale.min),
        "scale_max": str(rubric.scale.max),
    }
    return (("system", prompt.system.format_map(values)), ("user", prompt.user.format_map(values)))


def build_judge_requests(
    cfg: JudgeConfig,
    prompt: JudgePrompt,
    rubrics: list[Rubric],
    juror: ModelConfig,
    count_tokens: TokenCounter,
    questions: list[Question],
    generations: Mapping[str, Generation],
    retrievals: Mapping[str, Retrieval],
) -> tuple[list[ChatRequest], set[str]]:
    """`juror`'s requests, ordered question-major so that a local judge reuses its prompt prefix,
    and the questions whose knowledge base was cut to fit its window.

    Every rubric of a question gets the same knowledge base, sized for the largest of its
    prompts, so the shared prefix stays shared. Tokens are counted by `count_tokens` (the judge
    backend's tokenizer where it has one) on the text as the judge receives it (escaped)."""
    # tokens the judge model reads, prompt and output together
    window = getattr(juror, "max_model_len", None) or juror.context_window
    sampling = juror.sampling.model_copy(update={"max_tokens": cfg.max_tokens})
    requests: list[ChatRequest] = []
    cut: set[str] = set()
    for q in questions:
        g = generations[q.id]
        if g.response is None or not_judgeable(g) is not None:
            continue
        reference = q.reference_answers[0] if q.reference_answers else None
        render = partial(
            render_judge_messages, prompt, question=q.text, response=g.response, reference=reference
        )
        largest = max(  # the largest rubric prompt, without its knowledge base
            sum(count_tokens(t) + PER_TURN_TOKENS for _, t in render(r, knowledge_base=""))
            for r in rubrics
        )
        kb, was_cut = fit_knowledge_base(
            retrievals.get(q.id),
            max(0, window - cfg.max_tokens - cfg.margin_tokens - largest),
            lambda text: count_tokens(escape_block(text)),
        )
        if was_cut:
            cut.add(q.id)
        for rubric in rubrics:
            requests.append(
                ChatRequest(
                    key=judge_key(q.id, rubric.name),
                    messages=render(rubric, knowledge_base=kb),
                    sampling=sampling,
                    json_schema=rubric.json_schema(cfg.max_justification_chars),
                )
            )
    return requests, cut


class OutputForm(Protocol):
    """What a request asks for other than a rubric's scores (an LLM check's verdict): the
    output format a repair quotes, and the strict parser of a raw output."""

    def output_format(self) -> str: ...

    def parse(self, raw: str | None, max_chars: int | None) -> Verdict: ...


Asked = Rubric | OutputForm  # what one request asks the judge for


def repair_request(
    request: ChatRequest, raw: str | None, reason: str, rubric: Asked, attempt: int
) -> ChatRequest:
    """The original conversation, the judge's unusable reply, and what was wrong with it."""
    follow_up = REPAIR_MESSAGE.format(reason=reason, output_format=rubric.output_format())
    messages = (*request.messages, ("assistant", raw or ""), ("user", follow_up))
    return replace(request, key=f"{request.key}::repair{attempt}", messages=messages)


@dataclass(frozen=True)
class Ballot:
    """One judge model's answer to one request: its raw output and verdict, or the error."""

    raw: str | None
    error: str | None = None
    verdict: Verdict | None = None
    repairs: int = 0
    failed_repairs: tuple[str, ...] = ()  # why each repair request did not help

    @property
    def valid(self) -> bool:
        return self.verdict is not None and self.verdict.valid


def _completion_row(request: ChatRequest, completion: Completion, request_hash: str) -> dict:
    return {
        "text": completion.text,
        "error": completion.error,
        "prompt_tokens": completion.prompt_tokens,
        "completion_tokens": completion.completion_tokens,
        "latency_s": round(completion.latency_s, 4),
        "cached": bool(completion.extra.get("cached")),
    }


def _account(key: str, row: Mapping[str, Any]) -> ItemAccount:
    """One judge call as the ledger counts it (a row of an older progress file: no tokens)."""
    return ItemAccount(
        question_id=key,
        status="ok" if row.get("error") is None else "error",
        cached=bool(row.get("cached")),
        attempts=1,
        latency_s=float(row.get("latency_s", 0.0)),
        prompt_tokens=int(row.get("prompt_tokens", 0)),
        completion_tokens=int(row.get("completion_tokens", 0)),
        cost_usd=None,
    )


def _ballot(
    row: Mapping[str, Any], rubric: Asked, repairs: int = 0, max_chars: int | None = None
) -> Ballot:
    if row.get("error") is not None or row.get("text") is None:
        return Ballot(raw=row.get("text"), error=row.get("error") or "no output", repairs=repairs)
    if isinstance(rubric, Rubric):
        verdict = parse_verdict(row["text"], rubric, max_chars)
    else:
        verdict = rubric.parse(row["text"], max_chars)
    return Ballot(raw=row["text"], verdict=verdict, repairs=repairs)


# key -> (the last request sent, its reply, why the reply is unusable)
_Unusable = dict[str, tuple[ChatRequest, str | None, str]]


def collect_ballots(
    cfg: JudgeConfig,
    backend: Backend,
    requests: Sequence[ChatRequest],
    rubrics: Mapping[str, Asked],
    calls: JudgeCalls,
    juror: str,
    description: str,
) -> dict[str, Ballot]:
    """{request key: ballot} for every request of `juror`'s, after at most `cfg.max_repairs`
    repair rounds.

    `rubrics` maps each request key to the rubric (or `OutputForm`) it asks about. Repairs go
    through the same cache and progress file (keys `<key>::repair<n>`), so a re-run repeats none
    of them. A repair that does not help keeps the original output (its raw text and reason) and
    notes why; the next round answers the latest reply.
    """

    # each juror resumes from its own progress file; a single judge uses the stage's
    path = calls.progress_path
    progress = path.with_name(f"{path.stem}.{juror}{path.suffix}") if jury_of(cfg) else path

    def run(batch: Sequence[ChatRequest], label: str) -> dict[str, dict[str, Any]]:
        return calls.send(backend, juror, batch, progress, label)

    done = run(requests, description)
    limit = cfg.max_justification_chars
    ballots = {r.key: _ballot(done[r.key], rubrics[r.key], max_chars=limit) for r in requests}
    latest: _Unusable = {
        r.key: (r, b.raw, b.verdict.reason or "invalid")
        for r in requests
        if (b := ballots[r.key]).verdict is not None and not b.verdict.valid
    }
    for attempt in range(1, cfg.max_repairs + 1):
        if not latest:
            break
        pending = {
            key: repair_request(request, raw, reason, rubrics[key], attempt)
            for key, (request, raw, reason) in latest.items()
        }
        replies = run(list(pending.values()), f"{description} (repair {attempt})")
        latest = _apply_repairs(ballots, pending, replies, rubrics, attempt, limit)
    return ballots


def _apply_repairs(
    ballots: dict[str, Ballot],
    pending: Mapping[str, ChatRequest],
    replies: Mapping[str, dict[str, Any]],
    rubrics: Mapping[str, Asked],
    attempt: int,
    limit: int | None,
) -> _Unusable:
    """Record one repair round in `ballots` (in place); what is still worth repairing.

    A valid reply replaces the ballot. An invalid one keeps the original output and notes why;
    it is asked again next round, unless the call itself failed.
    """
    latest: _Unusable = {}
    for key, request in pending.items():
        ballot = _ballot(replies[request.key], rubrics[key], attempt, limit)
        if ballot.valid:
            ballots[key] = ballot
            continue
        why = ballot.error or (ballot.verdict.reason if ballot.verdict else None) or "invalid"
        original = ballots[key]  # a parsed output (never an error): it keeps its raw and verdict
        failed = (
            *original.failed_repairs,
            f"repair {attempt}: {why}; output {_excerpt(ballot.raw)}",
        )
        ballots[key] = replace(original, repairs=attempt, failed_repairs=failed)
        if ballot.error is None:
            latest[key] = (request, ballot.raw, why)
    return latest


def _excerpt(text: str | None, limit: int = 80) -> str:
    if text is None:
        return "none"
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")
