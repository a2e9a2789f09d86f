"""judge: per-sample scores for one model's answers: reference metrics and rubric LLM judges.

Writes one row per (question, model, metric) with the score, the raw judge output and the
justification, or the reason there is no score, and a summary beside it (invalid reasons,
responses that address the judge, self-judged rows, jury agreement, NoMIRACL rates).
Re-judging never re-generates. The answers must cover the curated questions exactly once: a
question without an answer, or answered twice, is an error naming the file (and lines).

    python -m parakh.stages.judge dataset=demo model=smollm2 judge=smoke

`shard=i num_shards=n` judges only shard i's questions (parakh.scale.shard; the per-language
sample is still drawn from the whole dataset) and writes the rows, summary and run spec under
`data/processed/<dataset>/shards/judge/<judge>/`; `parakh merge-shards judge num_shards=n ...`
(`merge_task`) writes the output a single run writes, its summary computed over all rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tqdm import tqdm

from parakh.backends.cache import ResponseCache
from parakh.config import ParakhConfig, hydra_entry
from parakh.errors import InputError, ParakhError
from parakh.io import iter_json_objects, read_jsonl, validate_row, write_json, write_jsonl
from parakh.judging.llm_judge import judge_rubrics
from parakh.judging.panel import BackendFactory, judge_with_rubrics
from parakh.judging.reference import reference_judgments
from parakh.judging.rubric import load_rubric
from parakh.judging.summary import judge_summary
from parakh.layout import Layout, generation_name, spec_path
from parakh.metrics.judged import judged_metrics, metric_slot
from parakh.metrics.scoring import resolve_metrics
from parakh.paths import resolve
from parakh.scale.shard import ShardSpec, merge_count, merge_rows, merged_run_spec, shard_files
from parakh.schema import Generation, Judgment, Question, Retrieval
from parakh.stats.coverage import Where, check, duplicates_text, some_keys
from parakh.tracking.runspec import write_run_spec


def run(
    cfg: ParakhConfig,
    questions: list[Question],
    generations: list[Generation],
    retrievals: list[Retrieval],
    progress_path: Path,
    cache: ResponseCache | None = None,
    backend_factory: BackendFactory | None = None,
    population: list[Question] | None = None,
) -> list[Judgment]:
    """Rows for `questions`: reference metrics for each, then rubric rows for each.

    `population` (default `questions`) is the whole dataset when `questions` is one shard."""
    judge = cfg.judge
    by_id = {g.question_id: g for g in generations}
    unanswered = [q.id for q in questions if q.id not in by_id]
    if unanswered:
        raise ParakhError(
            f"no generation for {len(unanswered)} of {len(questions)} questions: "
            f"{some_keys([(i,) for i in unanswered])}"
        )
    metrics = resolve_metrics(judge.reference_metrics)
    rows: list[Judgment] = []
    scored = tqdm(
        questions,
        desc=f"judge {cfg.model.name}: {', '.join(metrics)}",
        unit="answer",
        disable=not cfg.progress or not metrics,
        dynamic_ncols=True,
    )
    for q in scored:
        rows += reference_judgments(metrics, judge.name, q, by_id[q.id], judge.parser)
    if judge.rubrics:
        rows += judge_with_rubrics(
            judge,
            cfg.model,
            questions,
            by_id,
            {r.question_id: r for r in retrievals},
            progress_path,
            cache,
            seed=cfg.seed,
            show_progress=cfg.progress,
            backend_factory=backend_factory,
            population=population,
        )
    return rows


def summary_path(judgments: Path) -> Path:
    """`<model>.jsonl` -> `<model>.summary.json`."""
    return judgments.with_name(judgments.name.rsplit(".", 1)[0] + ".summary.json")


def summarize(cfg: ParakhConfig, rows: list[Judgment]) -> dict:
    jurors = cfg.judge.jury.models if cfg.judge.jury else []
    integer_scale = {
        metric: rubric.scale.integer
        for rubric in (load_rubric(name) for name in cfg.judge.rubrics)
        for metric in rubric.metrics
    }
    return judge_summary(
        rows, jurors=jurors, integer_scale=integer_scale, nomiracl_parser=cfg.judge.parser
    )


def read_generations(
    path: Path, questions: list[Question], questions_path: Path
) -> list[Generation]:
    """The answers in `path`: exactly one for each of `questions`. A missing file, a question
    answered twice, an answer to a question not in `questions_path`, or a question without an
    answer is an InputError naming the file, the lines or the ids (`parakh.stats.coverage`)."""
    rerun = f"re-run the generate stage for '{path.stem}' (`dvc repro` does)"
    if not path.is_file():
        raise InputError(path, f"no answers to judge: {rerun}")
    located = [
        (line, validate_row(Generation, obj, path, line)) for line, obj in iter_json_objects(path)
    ]
    coverage = check(
        [(q.id,) for q in questions],
        [((g.question_id,), Where(path, line)) for line, g in located],
    )
    if coverage.duplicates:
        raise InputError(
            path,
            f"{duplicates_text(coverage, 'question')}: one answer per question, or the judge "
            f"would score one of them and drop the other; {rerun}",
        )
    if coverage.unexpected:
        (question_id,), where = next(iter(coverage.unexpected.items()))
        more = len(coverage.unexpected) - 1
        raise InputError(
            path,
            f"question '{question_id}' is not in {questions_path}"
            + (f" (nor are {more} more)" if more else "")
            + f": these answers are to other questions; {rerun}",
            line=where.line,
        )
    if coverage.missing:
        raise InputError(
            path,
            f"no answer for {len(coverage.missing)} of {coverage.expected} questions of "
            f"{questions_path}: {some_keys(coverage.missing)}; {rerun}",
        )
    return [g for _, g in located]


def run_inputs(cfg: ParakhConfig, layout: Layout) -> dict[str, Path]:
    return {
        "questions": layout.curated_questions,
        "generations": layout.generations(generation_name(cfg)),
    }


def main_task(cfg: ParakhConfig) -> None:
    shard = ShardSpec.of(cfg)
    layout = Layout.of(cfg)
    out = layout.judgments(cfg.judge.name, generation_name(cfg))
    target = out if shard is None else layout.shard(out, shard.index, shard.count)
    questions = read_jsonl(layout.curated_questions, Question)
    generations = read_generations(
        layout.generations(generation_name(cfg)), questions, layout.curated_questions
    )
    retrievals = read_jsonl(layout.retrieval, Retrieval)
    judged = questions if shard is None else shard.select(questions, lambda q: q.id)
    cache = ResponseCache(resolve(cfg.paths.cache))
    progress = target.with_name(f".{target.stem}.progress.jsonl")
    try:
        rows = run(cfg, judged, generations, retrievals, progress, cache, population=questions)
    finally:
        cache.close()
    if cfg.translator.kind != "none":  # translate-test rows stand apart on the leaderboard
        rows = [r.model_copy(update={"translator": cfg.translator.name}) for r in rows]
    summary = summarize(cfg, rows)
    config: dict[str, Any] = {"judge": cfg.judge.model_dump()}
    if shard is not None:
        config["shard"] = shard.as_dict()
    write_json(summary_path(target), summary)
    write_run_spec(spec_path(target), stage="judge", config=config, inputs=run_inputs(cfg, layout))
    write_jsonl(target, rows)  # the rows last: a shard's rows file means a finished shard
    for leftover in [progress, *progress.parent.glob(f"{progress.stem}.*{progress.suffix}")]:
        leftover.unlink(missing_ok=True)
    _report(cfg, "" if shard is None else f", {shard}", len(rows), summary, target)


def merge_task(cfg: ParakhConfig) -> None:
    """Join the `num_shards` shards of a sharded run into the output a single run writes."""
    count = merge_count(cfg)
    layout = Layout.of(cfg)
    out = layout.judgments(cfg.judge.name, generation_name(cfg))
    files = shard_files(layout, out, count, stage="judge")
    questions = read_jsonl(layout.curated_questions, Question)
    spec = merged_run_spec(
        files, config={"judge": cfg.judge.model_dump()}, inputs=run_inputs(cfg, layout)
    )
    rubric_metrics = {m for r in judge_rubrics(cfg.judge) for m in r.metrics}
    metrics = judged_metrics(cfg.judge)
    merged = merge_rows(
        files,
        Judgment,
        questions,
        section=lambda row: int(row.metric in rubric_metrics),  # as `run` orders them
        key=lambda row: (row.question_id, metric_slot(row.metric, metrics)),
        expected=[(q.id, metric) for q in questions for metric in metrics],
        what="(question, metric)",
    )
    summary = summarize(cfg, merged.rows)
    write_jsonl(out, merged.plain)
    write_json(summary_path(out), summary)
    write_json(spec_path(out), spec)
    _report(cfg, f", {count} shards merged", len(merged.rows), summary, out)


def _report(cfg: ParakhConfig, what: str, rows: int, summary: dict[str, Any], path: Path) -> None:
    status = summary["status"]
    print(
        f"judge ({cfg.judge.name}) {cfg.model.name}{what}: {rows} rows, {status.get('ok', 0)} "
        f"scored, {status.get('invalid', 0)} invalid, {status.get('error', 0)} errors, "
        f"{status.get('skipped', 0)} skipped; {summary['injection']['responses']} responses "
        f"address the judge, {summary['self_judged_rows']} self-judged rows -> {path}"
    )
    for agreement in summary.get("jury_agreement", []):
        alpha, share = agreement["alpha"], agreement["percent_agreement"]
        print(
            f"  jury agreement on {agreement['metric']}: "
            f"{'–' if share is None else f'{share:.2f}'} of juror pairs agree, Krippendorff's "
            f"alpha ({agreement['alpha_level']}) {'–' if alpha is None else f'{alpha:.3f}'} "
            f"over {agreement['items']} items"
        )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
