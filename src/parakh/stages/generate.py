"""generate: one uniform prompt per dataset, one model per run; cached, resumable.

python -m parakh.stages.generate dataset=demo model=smollm2
python -m parakh.stages.generate -m model=extractive,smollm2     # Hydra multirun sweep
"""

from __future__ import annotations

from parakh.backends import ChatRequest, Completion, make_backend
from parakh.backends.base import Backend
from parakh.backends.cache import ResponseCache
from parakh.backends.runner import run_requests
from parakh.config import ParakhConfig, hydra_entry
from parakh.io import read_jsonl, write_jsonl
from parakh.layout import Layout, spec_path
from parakh.paths import resolve
from parakh.prompts.rag import load_rag_prompt, render_messages
from parakh.schema import Generation, Question, Retrieval, Usage
from parakh.tracking.runspec import write_run_spec


def build_requests(
    cfg: ParakhConfig, questions: list[Question], retrievals: dict[str, Retrieval]
) -> list[ChatRequest]:
    prompt = load_rag_prompt(cfg.dataset.prompt)
    requests = []
    for q in questions:
        r = retrievals.get(q.id)
        passages = tuple(c.text for c in (*r.kb_update_chunks, *r.raw_chunks)) if r else ()
        requests.append(
            ChatRequest(
                key=q.id,
                messages=render_messages(prompt, q, r),
                sampling=cfg.model.sampling,
                question=q.text,
                passages=passages,
            )
        )
    return requests


def to_generation(model: str):  # type: ignore[no-untyped-def]
    def convert(request: ChatRequest, completion: Completion, request_hash: str) -> dict:
        return Generation(
            question_id=request.key,
            model=model,
            status="ok" if completion.ok else "error",
            response=completion.text if completion.ok else None,
            error=completion.error,
            messages=request.message_dicts(),
            usage=Usage(
                prompt_tokens=completion.prompt_tokens,
                completion_tokens=completion.completion_tokens,
            ),
            latency_s=round(completion.latency_s, 4),
            cached=bool(completion.extra.get("cached")),
            request_hash=request_hash,
        ).model_dump(mode="json")

    return convert


def run(
    cfg: ParakhConfig,
    questions: list[Question],
    retrievals: list[Retrieval],
    backend: Backend,
    cache: ResponseCache | None,
    progress_path,
) -> list[Generation]:  # type: ignore[no-untyped-def]
    requests = build_requests(cfg, questions, {r.question_id: r for r in retrievals})
    rows = run_requests(
        backend,
        requests,
        cache,
        progress_path,
        to_generation(cfg.model.name),
        description=f"generate {cfg.model.name}",
        show_progress=cfg.progress,
    )
    # Timing and cache-hit fields vary between runs; the output keeps what the model said.
    return [
        Generation.model_validate({**rows[q.id], "latency_s": 0.0, "cached": False})
        for q in questions
    ]


def main_task(cfg: ParakhConfig) -> None:
    layout = Layout.of(cfg)
    out = layout.generations(cfg.model.name)
    questions = read_jsonl(layout.translated_questions, Question)
    retrievals = read_jsonl(layout.retrieval, Retrieval)
    backend = make_backend(cfg.model)
    cache = ResponseCache(resolve(cfg.paths.cache))
    progress = out.with_name(f".{out.stem}.progress.jsonl")
    try:
        generations = run(cfg, questions, retrievals, backend, cache, progress)
    finally:
        backend.close()
        cache.close()
    write_jsonl(out, generations)
    progress.unlink(missing_ok=True)
    write_run_spec(
        spec_path(out),
        stage="generate",
        config={
            "model": cfg.model.model_dump(),
            "prompt": cfg.dataset.prompt,
            "backend_identity": backend.identity(),
        },
        inputs={"questions": layout.translated_questions, "retrieval": layout.retrieval},
    )
    errors = sum(g.status == "error" for g in generations)
    print(f"generate ({cfg.model.name}): {len(generations)} answers, {errors} errors -> {out}")


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
