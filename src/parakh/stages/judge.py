"""judge: per-sample scores for one model's answers: reference metrics and rubric LLM judges.

Writes one row per (question, model, metric) with the score, the raw judge output and the
justification, or the reason there is no score. Re-judging never re-generates.

    python -m parakh.stages.judge dataset=demo model=smollm2 judge=smoke
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from parakh.backends import ChatRequest, Completion, make_backend
from parakh.backends.cache import ResponseCache
from parakh.backends.runner import run_requests
from parakh.config import ParakhConfig, hydra_entry
from parakh.errors import ConfigError
from parakh.io import read_jsonl, write_jsonl
from parakh.judging.llm_judge import (
    build_judge_requests,
    judge_key,
    rubric_judgment,
    sample_per_language,
)
from parakh.judging.prompt import load_judge_prompt
from parakh.judging.reference import reference_judgments
from parakh.judging.rubric import load_rubric
from parakh.layout import Layout, spec_path
from parakh.paths import resolve
from parakh.schema import Generation, Judgment, Question, Retrieval
from parakh.tracking.runspec import write_run_spec


def _completion_row(request: ChatRequest, completion: Completion, request_hash: str) -> dict:
    return {"text": completion.text, "error": completion.error}


def run(
    cfg: ParakhConfig,
    questions: list[Question],
    generations: list[Generation],
    retrievals: list[Retrieval],
    progress_path: Path,
    cache: ResponseCache | None = None,
) -> list[Judgment]:
    judge = cfg.judge
    by_id = {g.question_id: g for g in generations}
    rows: list[Judgment] = []
    for q in questions:
        rows += reference_judgments(judge.reference_metrics, judge.name, q, by_id[q.id])
    if judge.rubrics:
        if judge.model is None:
            raise ConfigError(f"judge '{judge.name}' has rubrics but no `model`")
        rubrics = [load_rubric(name) for name in judge.rubrics]
        sampled = sample_per_language(questions, judge.sample_per_language, cfg.seed)
        requests = build_judge_requests(
            judge,
            load_judge_prompt(judge.prompt),
            rubrics,
            [q for q in questions if q.id in sampled],
            by_id,
            {r.question_id: r for r in retrievals},
            judge.model.sampling.model_copy(update={"max_tokens": judge.max_tokens}),
        )
        backend = make_backend(judge.model)
        try:
            done: dict[str, Any] = run_requests(
                backend,
                requests,
                cache,
                progress_path,
                _completion_row,
                description=f"judge {cfg.model.name}",
                show_progress=cfg.progress,
            )
        finally:
            backend.close()
        for q in questions:
            for rubric in rubrics:
                row = done.get(judge_key(q.id, rubric.name))
                completion = Completion(text=row["text"], error=row["error"]) if row else None
                rows.append(
                    rubric_judgment(
                        judge.name, rubric, q, by_id[q.id], completion, sampled=q.id in sampled
                    )
                )
    return rows


def main_task(cfg: ParakhConfig) -> None:
    layout = Layout.of(cfg)
    out = layout.judgments(cfg.judge.name, cfg.model.name)
    questions = read_jsonl(layout.translated_questions, Question)
    generations = read_jsonl(layout.generations(cfg.model.name), Generation)
    retrievals = read_jsonl(layout.retrieval, Retrieval)
    cache = ResponseCache(resolve(cfg.paths.cache))
    progress = out.with_name(f".{out.stem}.progress.jsonl")
    try:
        rows = run(cfg, questions, generations, retrievals, progress, cache)
    finally:
        cache.close()
    write_jsonl(out, rows)
    progress.unlink(missing_ok=True)
    write_run_spec(
        spec_path(out),
        stage="judge",
        config={"judge": cfg.judge.model_dump()},
        inputs={
            "questions": layout.translated_questions,
            "generations": layout.generations(cfg.model.name),
        },
    )
    counts = Counter(r.status for r in rows)
    print(
        f"judge ({cfg.judge.name}) {cfg.model.name}: {len(rows)} rows, {counts['ok']} scored, "
        f"{counts['invalid']} invalid, {counts['error']} errors, {counts['skipped']} skipped "
        f"-> {out}"
    )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
