"""Rubric LLM judging: one call per (question, metric), constrained JSON, strict parsing."""

from __future__ import annotations

from collections import defaultdict

from parakh.backends.base import ChatRequest, Completion
from parakh.config.schema import JudgeConfig, Sampling
from parakh.hashing import sha256_text
from parakh.judging.parse import parse_verdict
from parakh.judging.prompt import JudgePrompt, knowledge_base_text, render_judge_messages
from parakh.judging.rubric import Rubric
from parakh.schema import Generation, Judgment, Question, Retrieval


def judge_key(question_id: str, metric: str) -> str:
    return f"{question_id}::{metric}"


def sample_per_language(questions: list[Question], per_language: int | None, seed: int) -> set[str]:
    """Ids of a deterministic sample of `per_language` questions per language (all if None)."""
    if per_language is None:
        return {q.id for q in questions}
    by_language: dict[str, list[Question]] = defaultdict(list)
    for q in questions:
        by_language[q.language].append(q)
    chosen: set[str] = set()
    for group in by_language.values():
        group.sort(key=lambda q: sha256_text(f"{seed}:{q.id}"))
        chosen.update(q.id for q in group[:per_language])
    return chosen


def build_judge_requests(
    cfg: JudgeConfig,
    prompt: JudgePrompt,
    rubrics: list[Rubric],
    questions: list[Question],
    generations: dict[str, Generation],
    retrievals: dict[str, Retrieval],
    sampling: Sampling,
) -> list[ChatRequest]:
    """Requests ordered question-major so that a local judge reuses its prompt prefix."""
    requests = []
    for q in questions:
        g = generations[q.id]
        if g.status != "ok" or g.response is None:
            continue
        kb = knowledge_base_text(retrievals.get(q.id), cfg.max_context_chars)
        reference = q.reference_answers[0] if q.reference_answers else None
        for rubric in rubrics:
            messages = render_judge_messages(
                prompt,
                rubric,
                question=q.text,
                response=g.response,
                reference=reference,
                knowledge_base=kb,
            )
            requests.append(
                ChatRequest(
                    key=judge_key(q.id, rubric.name),
                    messages=messages,
                    sampling=sampling,
                    json_schema=rubric.json_schema(cfg.max_justification_chars),
                )
            )
    return requests


def rubric_judgment(
    judge: str,
    rubric: Rubric,
    question: Question,
    generation: Generation,
    completion: Completion | None,
    sampled: bool = True,
) -> Judgment:
    base = {
        "question_id": question.id,
        "model": generation.model,
        "judge": judge,
        "metric": rubric.name,
        "language": question.language,
        "categories": question.categories,
        "scale_max": float(rubric.scale.max),
    }
    if not sampled:
        return Judgment(
            **base, status="skipped", reason="not in the judge's sample (judge.sample_per_language)"
        )
    if generation.status != "ok":
        return Judgment(**base, status="error", reason=f"no response to judge: {generation.error}")
    if completion is None or not completion.ok:
        reason = completion.error if completion else "judge was not called"
        return Judgment(**base, status="error", reason=f"judge call failed: {reason}")
    verdict = parse_verdict(completion.text or "", rubric)
    if not verdict.valid:
        return Judgment(**base, status="invalid", raw_output=completion.text, reason=verdict.reason)
    return Judgment(
        **base,
        status="ok",
        score=float(verdict.score or 0),
        justification=verdict.justification,
        raw_output=completion.text,
    )
