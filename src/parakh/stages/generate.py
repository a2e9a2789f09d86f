"""generate: one uniform prompt per dataset, one model per run; cached, resumable, accounted.

python -m parakh.stages.generate dataset=demo model=smollm2
python -m parakh.stages.generate -m model=extractive,smollm2     # Hydra multirun sweep
python -m parakh.stages.generate dataset=nomiracl model=gpt-4o generation.prompt=nomiracl_role

The output keeps what the model said (timing and cache fields zeroed: a re-run on the same
inputs is byte-identical); tokens, latency, retries and cost go to a ledger (`_account`). The
answers file is `run_files`'s; `shard=i num_shards=n` answers shard i's questions only, and
`parakh merge-shards generate num_shards=n ...` (`merge_task`) writes what a single run writes.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Sequence
from contextlib import closing
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from parakh.backends import ChatRequest, Completion, make_backend
from parakh.backends.accounting import ItemAccount, item_cost, summarize
from parakh.backends.base import Backend, estimate_tokens
from parakh.backends.cache import ResponseCache
from parakh.backends.replay import NOT_ASKED, unasked_reason
from parakh.backends.runner import run_requests
from parakh.config import ParakhConfig, hydra_entry
from parakh.errors import ParakhError
from parakh.io import atomic_jsonl, read_jsonl, write_json
from parakh.project import resolve
from parakh.prompts.builder import ModelView, TokenCounter, build_prompt
from parakh.prompts.fewshot import choose_examples, load_pool
from parakh.prompts.template import answer_prompt, load_prompt
from parakh.scale.shard import (
    ShardSpec,
    ledger_path,
    merge_accounting,
    merged_run_spec,
    plan_merge,
    shard_files,
)
from parakh.schema import Generation, Question, Retrieval, Truncation, Usage
from parakh.stage_outputs import (
    Layout,
    generation_name,
    ledgers,
    spec_path,
    translate_test_variant,
)
from parakh.tracking.client import parent_run_tags, tracking_uri
from parakh.tracking.runspec import write_run_spec
from parakh.tracking.stage_runs import StageRun, log_stage_run


def build_requests(
    cfg: ParakhConfig,
    questions: list[Question],
    retrievals: dict[str, Retrieval],
    count_tokens: TokenCounter = estimate_tokens,
    fewshot_pool: list[Question] | None = None,
) -> tuple[list[ChatRequest], dict[str, Truncation]]:
    """One request per question and sample (`generation.samples`: sample i with the model's
    seed + i), and the truncation record of each prompt that was cut."""
    template = load_prompt(answer_prompt(cfg))
    m = cfg.model
    window = getattr(m, "max_model_len", None) or m.context_window
    view = ModelView(m.kind, window, m.sampling, m.system_role, m.completion_format)
    fewshot = cfg.generation.fewshot
    if fewshot_pool is None:
        fewshot_pool = load_pool(fewshot, questions, cfg.dataset.fewshot_pool)
    requests, truncations = [], {}
    for q in questions:
        r = retrievals.get(q.id)
        built = build_prompt(
            template,
            q,
            r,
            view,
            count_tokens,
            choose_examples(fewshot_pool, q, fewshot),
            truncate=cfg.generation.truncate_context,
            margin_tokens=cfg.generation.margin_tokens,
        )
        if built.truncation is not None:
            truncations[q.id] = built.truncation
        passages = tuple(c.text for c in (*r.kb_update_chunks, *r.raw_chunks)) if r else ()
        if not passages and q.contexts:
            passages = tuple(p.text for p in q.contexts)
        requests += [
            ChatRequest(
                key=sample_key(q.id, i),
                messages=built.messages,
                sampling=built.sampling.model_copy(update={"seed": built.sampling.seed + i}),
                question=q.text,
                passages=passages,
                prompt=built.prompt,
            )
            for i in range(cfg.generation.samples)
        ]
    return requests, truncations


def sample_key(question_id: str, sample: int) -> str:
    """A request's key: the question id for sample 0 (as before samples), `<id>#s<i>` after."""
    return question_id if sample == 0 else f"{question_id}#s{sample}"


def _to_row(  # type: ignore[no-untyped-def]
    model: str, truncations: dict[str, Truncation], run_id: str, asked: dict[str, tuple[str, int]]
):
    def convert(request: ChatRequest, completion: Completion, request_hash: str) -> dict:
        question_id, sample = asked[request.key]
        generation = Generation(
            question_id=question_id,
            sample=sample,
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
            truncation=truncations.get(question_id),
            finish_reason=completion.finish_reason,
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


def run(
    cfg: ParakhConfig,
    questions: list[Question],
    retrievals: list[Retrieval],
    backend: Backend,
    cache: ResponseCache | None,
    progress_path: Path,
) -> GenerateResult:
    """Every question answered once per sample (or an error row), with the run's accounting."""
    name = generation_name(cfg)
    unasked = {q.id: r for q in questions if (r := unasked_reason(q, backend)) is not None}
    requests, truncations = build_requests(
        cfg,
        [q for q in questions if q.id not in unasked],
        {r.question_id: r for r in retrievals},
        backend.count_tokens,
    )
    asked = {
        sample_key(q.id, i): (q.id, i) for q in questions for i in range(cfg.generation.samples)
    }
    run_id = uuid.uuid4().hex  # tells this run's rows from those resumed from a progress file
    start = time.perf_counter()
    rows = run_requests(
        backend,
        requests,
        cache,
        progress_path,
        _to_row(name, truncations, run_id, asked),
        description=f"generate {name}",
        show_progress=cfg.progress,
    )
    wall = time.perf_counter() - start
    rows.update(_not_asked_rows(name, unasked, asked, run_id))
    prices = cfg.model.prices
    generations, items = [], []
    for key, (qid, _) in asked.items():
        row = rows[key]
        g = Generation.model_validate(row.get("generation", row))
        resumed = row.get("run") != run_id
        items.append(
            ItemAccount(
                question_id=qid,
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
                finish_reason=g.finish_reason,
            )
        )
        # Timing and cache-hit fields vary between runs; the output keeps what the model said.
        generations.append(g.model_copy(update={"latency_s": 0.0, "cached": False}))
    summary = summarize(items, wall_s=wall, prices=prices, truncated=len(truncations))
    summary["not_asked"] = len(unasked)
    return GenerateResult(generations, items, summary)


def _not_asked_rows(
    model: str, unasked: dict[str, str], asked: dict[str, tuple[str, int]], run_id: str
) -> dict[str, dict[str, Any]]:
    """An error row for each sample of a question not asked, so judge sees every question."""
    rows = {}
    for key, (qid, i) in asked.items():
        if qid in unasked:
            error = Generation(
                question_id=qid, model=model, status="error", error=unasked[qid], sample=i
            )
            rows[key] = {"generation": error.model_dump(mode="json"), "attempts": 0, "run": run_id}
    return rows


def run_config(cfg: ParakhConfig, backend_identity: dict[str, Any] | None) -> dict[str, Any]:
    """The run spec's config (`backend_identity` None: a merge, which loads no model)."""
    return {
        "model": cfg.model.model_dump(),
        "prompt": answer_prompt(cfg),
        # `variant` names the output file, which the run spec sits beside; leaving it out
        # keeps a hand run of direct inference byte-identical to DVC's `variant=direct` one
        "generation": cfg.generation.model_dump(exclude={"variant"}),
        "backend_identity": backend_identity,
    }


def run_files(cfg: ParakhConfig, layout: Layout) -> tuple[dict[str, Path], Path]:
    """The questions and chunks the model is asked from, and the answers file: curate's, index's
    and `generate/<name>.jsonl` for direct inference; a translate-test variant's English inputs
    and `pivot/<name>.jsonl` (back-translate writes its `generate/<name>.jsonl`)."""
    name = generation_name(cfg)
    if cfg.translator.kind == "none":
        inputs = {"questions": layout.curated_questions, "retrieval": layout.retrieval}
        return inputs, layout.generations(name)
    variant = translate_test_variant(cfg)
    asked = {
        "questions": layout.asked_questions(variant),
        "retrieval": layout.asked_retrieval(variant),
    }
    return asked, layout.pivot_generations(name)


def main_task(cfg: ParakhConfig) -> None:
    shard = ShardSpec.of(cfg)
    layout = Layout.of(cfg)
    name = generation_name(cfg)
    inputs, out = run_files(cfg, layout)
    target = out if shard is None else layout.shard(out, shard.index, shard.count)
    questions = read_jsonl(inputs["questions"], Question)
    retrievals = read_jsonl(inputs["retrieval"], Retrieval)
    backend = make_backend(cfg.model)
    backend.use_run_settings(resolve(cfg.paths.cache), cfg.progress)
    # all the run's questions, not one shard's: before the cache or progress file is opened
    # (an OpenAI-compatible backend checks its API key here, before any request)
    backend.prepare([q.id for q in questions])
    if shard is not None:
        questions = [q for q in questions if shard.holds(q.id)]
        retrievals = [r for r in retrievals if shard.holds(r.question_id)]
    progress = target.with_name(f".{target.stem}.progress.jsonl")
    with closing(backend), closing(ResponseCache(resolve(cfg.paths.cache))) as cache:
        result = run(cfg, questions, retrievals, backend, cache, progress)
    config = run_config(cfg, backend.identity())
    if shard is not None:
        config["shard"] = asdict(shard)
    if shard is not None:  # a shard's spec and ledger first: its rows mean a finished shard
        write_run_spec(spec_path(target), stage="generate", config=config, inputs=inputs)
        ledger = _ledger(cfg, result.summary, result.items, shard=asdict(shard))
        write_json(ledger_path(target), ledger)
    with atomic_jsonl(target) as written:
        written.write_all(result.generations)
    if shard is None:  # a whole run's spec once its rows are written: a failed write leaves none
        write_run_spec(spec_path(target), stage="generate", config=config, inputs=inputs)
    progress.unlink(missing_ok=True)
    if shard is None:  # the ledger and MLflow run of a whole run
        _account(cfg, result.summary, result.items)
    _report(name if shard is None else f"{name}, {shard}", result.summary, target)
    check_failures(cfg, result.generations, target)


def merge_task(cfg: ParakhConfig) -> None:
    """Join the `num_shards` shards of a sharded run into the output a single run writes."""
    layout = Layout.of(cfg)
    name = generation_name(cfg)
    inputs, out = run_files(cfg, layout)
    files = shard_files(cfg, layout, out, stage="generate")
    questions = read_jsonl(inputs["questions"], Question)
    spec = merged_run_spec(
        files,
        config=run_config(cfg, None),
        inputs=inputs,
        ignore=("backend_identity",),
    )
    ids, samples = [q.id for q in questions], cfg.generation.samples
    if samples == 1:
        rows = plan_merge(files, Generation, ids)  # each row checked first
    else:  # a question's samples in order, as a single run writes them
        rows = plan_merge(
            files,
            Generation,
            ids,
            key=lambda g: (g.question_id, str(g.sample)),
            expected=((i, str(s)) for i in ids for s in range(samples)),
            what="(question, sample)",
        )
    summary, items = merge_accounting(files, questions, cfg.model.prices)
    with atomic_jsonl(out) as written:
        written.write_all(rows)
        merged = list(written.written(Generation))
    write_json(spec_path(out), spec)
    _account(cfg, summary, items, shards=len(files))
    _report(f"{name}, {len(files)} shards merged", summary, out)
    check_failures(cfg, merged, out)


def _ledger(
    cfg: ParakhConfig, summary: dict[str, Any], items: list[ItemAccount], **run: Any
) -> dict[str, Any]:
    """A run's accounting: what ran (and its `shard`, or the `shards` merged), totals, items."""
    name = generation_name(cfg)
    run = {"dataset": cfg.dataset.name, "model": cfg.model.name, "output": name, **run}
    return {"run": run, "summary": summary, "items": [asdict(i) for i in items]}


def _account(
    cfg: ParakhConfig, summary: dict[str, Any], items: list[ItemAccount], **run: Any
) -> None:
    """The run's ledger, `<state>/accounting/<dataset>/<name>.json` beside the response cache
    (outside the stage outputs, whose folder later stages hash), and in MLflow if asked."""
    name = generation_name(cfg)
    ledger = ledgers(cfg) / f"{name}.json"
    write_json(ledger, _ledger(cfg, summary, items, **run))
    if cfg.generation.log_mlflow:
        tags = {"dataset": cfg.dataset.name, "model": cfg.model.name, "prompt": answer_prompt(cfg)}
        tags.update(parent_run_tags())  # a job of a sweep with a parent run
        tags.update({k: str(v) for k, v in run.items()})  # the shards merged
        numbers = {
            f"generate.{k}": float(v)
            for k, v in summary.items()
            if isinstance(v, int | float) and not isinstance(v, bool)
        }
        stage_run = StageRun(
            experiment=cfg.tracking.experiment,
            name=f"{name} · generate · {cfg.dataset.name}",
            tags={"stage": "generate", **tags},
            metrics=numbers,
            artifacts=((ledger, "accounting"),),
            keyed=False,  # a ledger of this execution: its latencies are its own
        )
        log_stage_run(tracking_uri(cfg.tracking.uri), stage_run)


class FailedRunError(ParakhError):
    """Too many of a run's requests failed; its rows are written, the stage is not done."""


def check_failures(cfg: ParakhConfig, generations: Sequence[Generation], path: Path) -> None:
    """A FailedRunError once the rows are written, when all or more than `max_failed_share` of
    the asked questions' answers are errors (a closed port, a 404, a wrong key), which `dvc repro`
    would otherwise record as the model's answers. Never for a backend that sends no request
    (replay, extractive): its error rows are what the data lacks."""
    asked = [g for g in generations if not (g.error or "").startswith(NOT_ASKED)]
    failed = [g.error or g.status for g in asked if g.status != "ok"]
    total, share, model = len(asked), cfg.generation.max_failed_share, cfg.model
    if model.backend in ("replay", "extractive") or not failed:
        return
    if len(failed) < total and len(failed) / total <= share:
        return
    how_many = (
        "all of them"
        if len(failed) == total
        else f"{len(failed) / total:.0%}, more than generation.max_failed_share={share:g}"
    )
    reasons = "\n".join(
        f"  {count} x {_short(reason)}" for reason, count in Counter(failed).most_common(3)
    )
    raise FailedRunError(
        f"model '{model.name}': {len(failed)} of {total} requests failed ({how_many}). "
        f"Most common reasons:\n{reasons}\n"
        f"Every row is written, with its reason, to {path}, but the stage is not done. "
        "Check the model's base_url, that its server is up and serves its model_id, and its "
        "API key (`api_key_env`), then run the stage again: it asks again only for the failed "
        "ones (errors are never cached). To accept a larger share of failures, raise "
        "generation.max_failed_share (a run where every request failed always fails)."
    )


def _short(reason: str, chars: int = 200) -> str:
    flat = " ".join(reason.split())
    return flat if len(flat) <= chars else flat[: chars - 3] + "..."


def _report(what: str, s: dict[str, Any], path: Path) -> None:
    cost = f", ${s['cost_usd']:.4f}" if s["cost_usd"] is not None else ""
    print(
        f"generate ({what}): {s['items']} answers, {s['errors']} errors, {s['cached']} cached, "
        f"{s['truncated_prompts']} truncated, {s.get('truncated_answers', 0)} answers cut by "
        f"max_tokens{cost}"
        + (f", {s['not_asked']} not asked (prompt unavailable)" if s.get("not_asked") else "")
        + f" -> {path}"
    )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
