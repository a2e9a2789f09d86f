"""generate: one uniform prompt per dataset, one model per run; cached, resumable, accounted.

python -m parakh.stages.generate dataset=demo model=smollm2
python -m parakh.stages.generate -m model=extractive,smollm2     # Hydra multirun sweep
python -m parakh.stages.generate dataset=nomiracl model=gpt-4o generation.prompt=nomiracl_role

The output keeps what the model said (timing and cache fields zeroed, so a re-run on the same
inputs is byte-identical); tokens, latency, retries and cost of the run go to
`.parakh/accounting/<dataset>/<name>.json`, beside the response cache (and to MLflow with
`generation.log_mlflow=true`).
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parakh.backends import ChatRequest, Completion, make_backend
from parakh.backends.accounting import (
    ItemAccount,
    accounting_document,
    accounting_path,
    item_cost,
    log_accounting_to_mlflow,
    summarize,
)
from parakh.backends.base import Backend, estimate_tokens
from parakh.backends.cache import ResponseCache
from parakh.backends.runner import run_requests
from parakh.config import ParakhConfig, hydra_entry
from parakh.io import read_jsonl, write_json, write_jsonl
from parakh.layout import Layout, generation_name, spec_path
from parakh.paths import resolve
from parakh.prompts.builder import ModelView, TokenCounter, build_prompt
from parakh.prompts.fewshot import choose_examples, load_pool
from parakh.prompts.template import load_prompt
from parakh.schema import Generation, Question, Retrieval, Truncation, Usage
from parakh.tracking.mlflow_log import tracking_uri
from parakh.tracking.runspec import write_run_spec
from parakh.translation.translate_test import TranslateTest


def prompt_name(cfg: ParakhConfig) -> str:
    return cfg.generation.prompt or cfg.dataset.prompt


def model_view(cfg: ParakhConfig) -> ModelView:
    m = cfg.model
    window = getattr(m, "max_model_len", None) or m.context_window
    return ModelView(m.kind, window, m.sampling, m.system_role, m.completion_format)


def build_requests(
    cfg: ParakhConfig,
    questions: list[Question],
    retrievals: dict[str, Retrieval],
    count_tokens: TokenCounter = estimate_tokens,
    fewshot_pool: list[Question] | None = None,
) -> tuple[list[ChatRequest], dict[str, Truncation]]:
    """One request per question, and the truncation record of each prompt that was cut."""
    template = load_prompt(prompt_name(cfg))
    view = model_view(cfg)
    pool = (
        fewshot_pool if fewshot_pool is not None else load_pool(cfg.generation.fewshot, questions)
    )
    requests, truncations = [], {}
    for q in questions:
        r = retrievals.get(q.id)
        built = build_prompt(
            template,
            q,
            r,
            view,
            count_tokens,
            choose_examples(pool, q, cfg.generation.fewshot),
            truncate=cfg.generation.truncate_context,
            margin_tokens=cfg.generation.margin_tokens,
        )
        if built.truncation is not None:
            truncations[q.id] = built.truncation
        passages = tuple(c.text for c in (*r.kb_update_chunks, *r.raw_chunks)) if r else ()
        if not passages and q.contexts:
            passages = tuple(p.text for p in q.contexts)
        requests.append(
            ChatRequest(
                key=q.id,
                messages=built.messages,
                sampling=built.sampling,
                question=q.text,
                passages=passages,
                prompt=built.prompt,
            )
        )
    return requests, truncations


def _to_row(model: str, truncations: dict[str, Truncation], run_id: str):  # type: ignore[no-untyped-def]
    def convert(request: ChatRequest, completion: Completion, request_hash: str) -> dict:
        generation = Generation(
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
            prompt=request.prompt,
            truncation=truncations.get(request.key),
        )
        return {
            "generation": generation.model_dump(mode="json"),
            "attempts": completion.attempts,
            "run": run_id,
        }

    return convert


@dataclass
class GenerateResult:
    generations: list[Generation]
    items: list[ItemAccount]
    summary: dict[str, Any]


def generate(
    cfg: ParakhConfig,
    questions: list[Question],
    retrievals: list[Retrieval],
    backend: Backend,
    cache: ResponseCache | None,
    progress_path: Path,
) -> GenerateResult:
    """Every question answered exactly once (or an error row), with the run's accounting."""
    name = generation_name(cfg)
    # translate-test: ask in English, back-translate answers; a pass-through for translator=none
    translate_test = TranslateTest.open(cfg.translator, cache)
    asked = [translate_test.question(q) for q in questions]
    retrievals = translate_test.retrievals(questions, retrievals)
    requests, truncations = build_requests(
        cfg, asked, {r.question_id: r for r in retrievals}, backend.count_tokens
    )
    run_id = uuid.uuid4().hex  # tells this run's rows from those resumed from a progress file
    start = time.perf_counter()
    rows = run_requests(
        backend,
        requests,
        cache,
        progress_path,
        _to_row(name, truncations, run_id),
        description=f"generate {name}",
        show_progress=cfg.progress,
    )
    wall = time.perf_counter() - start
    prices = cfg.model.prices
    generations, items = [], []
    for q in questions:
        row = rows[q.id]
        g = Generation.model_validate(row.get("generation", row))
        resumed = row.get("run") != run_id
        items.append(
            ItemAccount(
                question_id=q.id,
                status=g.status,
                cached=g.cached,
                attempts=int(row.get("attempts", 1)),
                latency_s=g.latency_s,
                prompt_tokens=g.usage.prompt_tokens,
                completion_tokens=g.usage.completion_tokens,
                cost_usd=None
                if g.cached or resumed
                else item_cost(prices, g.usage.prompt_tokens, g.usage.completion_tokens),
                resumed=resumed,
            )
        )
        # Timing and cache-hit fields vary between runs; the output keeps what the model said.
        generations.append(g.model_copy(update={"latency_s": 0.0, "cached": False}))
    generations = translate_test.finish(questions, generations)
    translate_test.close()
    summary = summarize(items, wall_s=wall, prices=prices, truncated=len(truncations))
    return GenerateResult(generations, items, summary)


def run(
    cfg: ParakhConfig,
    questions: list[Question],
    retrievals: list[Retrieval],
    backend: Backend,
    cache: ResponseCache | None,
    progress_path: Path,
) -> list[Generation]:
    return generate(cfg, questions, retrievals, backend, cache, progress_path).generations


def main_task(cfg: ParakhConfig) -> None:
    layout = Layout.of(cfg)
    name = generation_name(cfg)
    out = layout.generations(name)
    questions = read_jsonl(layout.translated_questions, Question)
    retrievals = read_jsonl(layout.retrieval, Retrieval)
    backend = make_backend(cfg.model)
    cache = ResponseCache(resolve(cfg.paths.cache))
    progress = out.with_name(f".{out.stem}.progress.jsonl")
    try:
        result = generate(cfg, questions, retrievals, backend, cache, progress)
    finally:
        backend.close()
        cache.close()
    write_jsonl(out, result.generations)
    progress.unlink(missing_ok=True)
    write_run_spec(
        spec_path(out),
        stage="generate",
        config={
            "model": cfg.model.model_dump(),
            "prompt": prompt_name(cfg),
            "generation": cfg.generation.model_dump(),
            "backend_identity": backend.identity(),
        },
        inputs={"questions": layout.translated_questions, "retrieval": layout.retrieval},
    )
    run_info = {"dataset": cfg.dataset.name, "model": cfg.model.name, "output": name}
    ledger = accounting_path(resolve(cfg.paths.cache).parent, cfg.dataset.name, name)
    write_json(ledger, accounting_document(run_info, result.summary, result.items))
    if cfg.generation.log_mlflow:
        log_accounting_to_mlflow(
            uri=tracking_uri(cfg.tracking.uri),
            experiment=cfg.tracking.experiment,
            run_name=f"generate/{cfg.dataset.name}/{name}",
            tags={"dataset": cfg.dataset.name, "model": cfg.model.name, "prompt": prompt_name(cfg)},
            summary=result.summary,
            artifact=ledger,
        )
    s = result.summary
    cost = f", ${s['cost_usd']:.4f}" if s["cost_usd"] is not None else ""
    print(
        f"generate ({name}): {s['items']} answers, {s['errors']} errors, {s['cached']} cached, "
        f"{s['truncated_prompts']} truncated{cost} -> {out}"
    )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
