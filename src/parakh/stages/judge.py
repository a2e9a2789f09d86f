"""judge: per-sample scores for one model's answers: reference metrics, rubric LLM judges and
LLM checks (`parakh.judging.checks`).

Writes one row per (question, model, metric) with the score, the raw judge output and the
justification, or the reason there is no score, and a summary beside it (invalid reasons,
responses that address the judge, self-judged rows, jury agreement, NoMIRACL rates).
Re-judging never re-generates. The answers must cover the curated questions exactly once: a
question without an answer, or answered twice, is an error naming the file (and lines).

    python -m parakh.stages.judge dataset=demo model=smollm2 judge=smoke

`shard=i num_shards=n` judges only shard i's questions (the per-language sample is still drawn
from the whole dataset) under `data/processed/<dataset>/shards/judge/<judge>/`; `parakh
merge-shards judge num_shards=n ...` (`merge_task`) writes the output a single run writes.

The stage streams: it keeps of each answer only what judging reads (`Answer`) and writes each
row as it is scored. The chunks a rubric judge reads are the question's retrieval, or with
`judge.chunks_from=generation` those the answering model's prompt held (`judge_chunks`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal

from tqdm import tqdm

from parakh.backends.cache import ResponseCache
from parakh.config import ParakhConfig, hydra_entry
from parakh.errors import InputError
from parakh.io import (
    atomic_jsonl,
    iter_json_objects,
    iter_jsonl,
    read_jsonl,
    validate_row,
    write_json,
)
from parakh.judging.ballot_rows import judge_with_rubrics
from parakh.judging.checks import CheckInputs, check_metrics, get_check
from parakh.judging.judge_context import PromptChunksError, seen_retrieval
from parakh.judging.judge_selection import jury_of
from parakh.judging.llm_judge import JudgeCalls, judge_rubrics, not_judgeable, sample_per_language
from parakh.judging.reference import reference_judgments
from parakh.judging.summary import judge_summary, judge_usage, merged_usage
from parakh.metrics.registry import judged_metrics, metric_slot
from parakh.metrics.rubric import load_rubric
from parakh.metrics.scoring import resolve_metrics
from parakh.project import resolve
from parakh.prompts.template import answer_prompt, load_prompt
from parakh.row_coverage import Key, Where, check, duplicates_text, some_keys
from parakh.scale.shard import ShardSpec, merged_run_spec, plan_merge, shard_files
from parakh.schema import Generation, Judgment, Question, Retrieval
from parakh.stage_outputs import Layout, generation_name, ledgers, spec_path, summary_path
from parakh.tracking.runspec import write_run_spec


@dataclass(frozen=True, slots=True)
class Answer:
    """What judging reads of one generation (not its prompt, most of a generations file)."""

    model: str
    status: Literal["ok", "error"]
    response: str | None
    error: str | None


class Answers(Mapping[str, Generation]):
    """One sample's answers by question id (sample 0's unless `of_sample`), each a Generation
    (without its prompt) when looked up."""

    def __init__(self, answers: dict[tuple[str, int], Answer], sample: int = 0) -> None:
        self._answers, self.sample = answers, sample
        self._ids = [qid for qid, i in answers if i == sample]

    def of_sample(self, sample: int) -> Answers:
        return Answers(self._answers, sample)

    def __getitem__(self, question_id: str) -> Generation:
        answer = asdict(self._answers[(question_id, self.sample)])
        return Generation(question_id=question_id, sample=self.sample, **answer)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


@dataclass(frozen=True)
class JudgeInputs:
    """What the judge reads: the curated questions (a line at a time, on each pass), their
    answers, and the files the chunks come from (rubric judging only, `judge_chunks`)."""

    questions: Path
    answers: Answers
    generations: Path
    retrieval: Path

    @classmethod
    def read(
        cls, questions: Path, generations: Path, retrieval: Path, samples: int = 1
    ) -> JudgeInputs:
        """The answers read and checked against the questions (`read_generations`)."""
        answers = read_generations(generations, questions, samples)
        return cls(questions, answers, generations, retrieval)


def input_paths(cfg: ParakhConfig, layout: Layout) -> dict[str, Path]:
    """The inputs the run spec records (the chunks are the generations' own inputs)."""
    return {
        "questions": layout.curated_questions,
        "generations": layout.generations(generation_name(cfg)),
    }


def run(cfg: ParakhConfig, inputs: JudgeInputs, calls: JudgeCalls) -> Iterator[Judgment]:
    """The rows of this run's questions (with `shard=`, the shard's), as they are scored:
    reference metrics for each question, then rubric rows for each (the judge models called
    through `calls`); translate-test rows carry their translator. With `generation.samples`,
    each sample's rows in turn, carrying its index (its calls resume from their own file)."""
    for i in range(cfg.generation.samples):
        answers = inputs.answers.of_sample(i)
        path = calls.progress_path
        progress = path if i == 0 else path.with_name(f"{path.stem}.s{i}{path.suffix}")
        for row in _sample_rows(cfg, inputs, answers, replace(calls, progress_path=progress)):
            yield row if i == 0 else row.model_copy(update={"sample": i})


def _sample_rows(
    cfg: ParakhConfig, inputs: JudgeInputs, answers: Answers, calls: JudgeCalls
) -> Iterator[Judgment]:
    shard = ShardSpec.of(cfg)
    judge = cfg.judge
    metrics = resolve_metrics(judge.reference_metrics)
    if metrics:
        scored = tqdm(
            (q for q in iter_jsonl(inputs.questions, Question) if _in(shard, q)),
            total=len(answers) if shard is None else sum(map(shard.holds, answers)),
            desc=f"judge {cfg.model.name}: {', '.join(metrics)}",
            unit="answer",
            disable=not cfg.progress,
            dynamic_ncols=True,
        )
        for q in scored:
            rows = reference_judgments(metrics, judge.name, q, answers[q.id], judge.parser)
            yield from _tagged(cfg, rows)
    if not (judge.rubrics or judge.checks):
        return
    questions = read_jsonl(inputs.questions, Question)
    mine = [q for q in questions if _in(shard, q)]
    # drawn from the whole dataset, so that a shard samples as a single run does
    sample = sample_per_language(questions, judge.sample_per_language, cfg.seed)
    wanted = {q.id for q in mine} & sample
    chunks = judge_chunks(cfg, inputs.generations, inputs.retrieval, wanted)
    if judge.rubrics:
        rows = judge_with_rubrics(judge, cfg.model, mine, answers, chunks, sample, calls)
        yield from _tagged(cfg, rows)
    # a check asks its judge model once; `repeats` measure the rubrics' self-consistency
    checked = CheckInputs(
        judge.model_copy(update={"repeats": 1}),
        cfg.model,
        mine,
        answers,
        chunks,
        sample,
        calls,
        answer_prompt(cfg),
        questions,
    )
    for name in judge.checks:
        yield from _tagged(cfg, get_check(name).rows(checked))


def summarize(cfg: ParakhConfig, rows: Sequence[Judgment]) -> dict:
    jury = jury_of(cfg.judge)
    jurors = jury.models if jury else []
    integer_scale = {
        metric: rubric.scale.integer
        for rubric in (load_rubric(name) for name in cfg.judge.rubrics)
        for metric in rubric.metrics
    }
    summary = judge_summary(
        rows, jurors=jurors, integer_scale=integer_scale, nomiracl_parser=cfg.judge.parser
    )
    for name in cfg.judge.checks:
        check = get_check(name)
        # its own metrics' rows, and those of the metrics it compares with (if it says so)
        own = {spec.name for spec in check.metrics} | set(getattr(check, "compares", ()))
        said = check.summarize([r for r in rows if r.metric in own])
        if said is not None:
            summary[name] = said
    return summary


def read_generations(path: Path, questions_path: Path, samples: int = 1) -> Answers:
    """The answers in `path`: exactly one for each curated question of `questions_path` and
    sample (every row validated, none kept), else an InputError naming the file, the lines or
    the ids (`parakh.row_coverage`)."""
    rerun = f"re-run the generate stage for '{path.stem}' (`dvc repro` does)"
    if not path.is_file():
        raise InputError(path, f"no answers to judge: {rerun}")
    answers: dict[tuple[str, int], Answer] = {}

    def key(question_id: str, sample: int) -> Key:
        return (question_id,) if sample == 0 else (question_id, f"sample {sample}")

    def located() -> Iterator[tuple[Key, Where]]:
        for line, obj in iter_json_objects(path):
            g = validate_row(Generation, obj, path, line)
            answers[(g.question_id, g.sample)] = Answer(g.model, g.status, g.response, g.error)
            yield key(g.question_id, g.sample), Where(path, line)

    questions = [q.id for q in iter_jsonl(questions_path, Question)]
    coverage = check([key(q, i) for q in questions for i in range(samples)], located())
    if coverage.duplicates:
        raise InputError(
            path,
            f"{duplicates_text(coverage, 'question')}: one answer per question, or the judge "
            f"would score one of them and drop the other; {rerun}",
        )
    if coverage.unexpected:
        (question_id, *sample), where = next(iter(coverage.unexpected.items()))
        more = len(coverage.unexpected) - 1
        raise InputError(
            path,
            f"question '{question_id}'{f' ({sample[0]})' if sample else ''} is not in "
            f"{questions_path}"
            + (f" with generation.samples={samples}" if sample else "")
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
    return Answers(answers)


def judge_chunks(
    cfg: ParakhConfig, generations: Path, retrieval: Path, question_ids: set[str]
) -> dict[str, Retrieval]:
    """The knowledge base the rubric judge reads for `question_ids` (`judge.chunks_from`): their
    retrieval (every row validated), or the chunks their judged answers' prompts held, an
    InputError naming the file and line of an answer whose prompt does not show them."""
    if cfg.judge.chunks_from == "index":
        rows = iter_jsonl(retrieval, Retrieval)
        return {r.question_id: r for r in rows if r.question_id in question_ids}
    template = load_prompt(answer_prompt(cfg))
    seen: dict[str, Retrieval] = {}
    for line, obj in iter_json_objects(generations):
        g = validate_row(Generation, obj, generations, line)
        if g.question_id not in question_ids or not_judgeable(g) is not None:
            continue
        try:
            seen[g.question_id] = seen_retrieval(g, template)
        except PromptChunksError as e:
            raise InputError(
                generations,
                f"answer to question '{g.question_id}': judge.chunks_from=generation reads the "
                f"knowledge base from the answering model's prompt, but {e}. Re-run generate "
                "with that prompt, or set judge.chunks_from=index",
                line=line,
            ) from e
    return seen


def main_task(cfg: ParakhConfig) -> None:
    shard = ShardSpec.of(cfg)
    layout = Layout.of(cfg)
    paths = input_paths(cfg, layout)
    samples = cfg.generation.samples
    inputs = JudgeInputs.read(paths["questions"], paths["generations"], layout.retrieval, samples)
    out = layout.judgments(cfg.judge.name, generation_name(cfg))
    target = out if shard is None else layout.shard(out, shard.index, shard.count)
    progress = target.with_name(f".{target.stem}.progress.jsonl")
    config: dict[str, Any] = {"judge": cfg.judge.model_dump()}
    if shard is not None:
        config["shard"] = asdict(shard)
    # the rows last: a shard's rows file means a finished shard; the summary and run spec are
    # written before the rename
    with closing(ResponseCache(resolve(cfg.paths.cache))) as cache, atomic_jsonl(target) as written:
        calls = JudgeCalls(cache, progress, cfg.progress)
        written.write_all(run(cfg, inputs, calls))
        summary = summarize(cfg, written.written(Judgment))
        if calls.accounts:
            summary["usage"] = judge_usage(cfg.judge, calls.accounts)
        write_json(summary_path(target), summary)
        write_run_spec(spec_path(target), stage="judge", config=config, inputs=paths)
    for leftover in [progress, *progress.parent.glob(f"{progress.stem}.*{progress.suffix}")]:
        leftover.unlink(missing_ok=True)
    if shard is None and calls.accounts:  # measured: outside the outputs (`stage_outputs.ledgers`)
        ledger = ledgers(cfg) / "judge" / cfg.judge.name / f"{out.stem}.json"
        jurors = {j: {"items": [asdict(i) for i in a]} for j, a in calls.accounts.items()}
        write_json(ledger, {"run": {"judge": cfg.judge.name, "output": out.stem}, "jurors": jurors})
    _report(cfg, "" if shard is None else f", {shard}", written.rows, summary, target)


def _in(shard: ShardSpec | None, question: Question) -> bool:
    return shard is None or shard.holds(question.id)


def _tagged(cfg: ParakhConfig, rows: Iterable[Judgment]) -> Iterator[Judgment]:
    """Translate-test rows carry their translator: they stand apart on the leaderboard."""
    translator = {"translator": cfg.translator.name}
    for r in rows:
        yield r if cfg.translator.kind == "none" else r.model_copy(update=translator)


def merge_task(cfg: ParakhConfig) -> None:
    """Join the `num_shards` shards of a sharded run into the output a single run writes."""
    layout = Layout.of(cfg)
    out = layout.judgments(cfg.judge.name, generation_name(cfg))
    files = shard_files(cfg, layout, out, stage="judge")
    question_ids = [q.id for q in iter_jsonl(layout.curated_questions, Question)]
    spec = merged_run_spec(
        files, config={"judge": cfg.judge.model_dump()}, inputs=input_paths(cfg, layout)
    )
    rubric_metrics = {m for r in judge_rubrics(cfg.judge) for m in r.metrics}
    check_of = {m: i for i, name in enumerate(cfg.judge.checks) for m in check_metrics([name])}
    metrics = judged_metrics(cfg.judge)
    sections, samples = 2 + len(check_of), cfg.generation.samples

    def section(row: Judgment) -> int:
        """Each sample's rows in turn: reference rows, rubric rows, then each check's, as `run`
        yields them."""
        part = 2 + check_of[row.metric] if row.metric in check_of else row.metric in rubric_metrics
        return row.sample * sections + int(part)

    def key(row: Judgment) -> tuple[str, ...]:
        slot = (row.question_id, metric_slot(row.metric, metrics))
        return slot if samples == 1 else (*slot, str(row.sample))

    expected = [(i, metric) for i in question_ids for metric in metrics]
    rows = plan_merge(
        files,
        Judgment,
        question_ids,
        section=section,
        key=key,
        expected=expected
        if samples == 1
        else [(*slot, str(s)) for s in range(samples) for slot in expected],
        what="(question, metric)" if samples == 1 else "(question, metric, sample)",
    )
    with atomic_jsonl(out) as written:
        written.write_all(rows)
        summary = summarize(cfg, written.written(Judgment))
        shards = [json.loads(summary_path(f).read_text(encoding="utf-8")) for f in files]
        if usage := merged_usage(shards):
            summary["usage"] = usage
        write_json(summary_path(out), summary)
        write_json(spec_path(out), spec)
    _report(cfg, f", {len(files)} shards merged", written.rows, summary, out)


def _report(cfg: ParakhConfig, what: str, rows: int, summary: dict[str, Any], path: Path) -> None:
    status = summary["status"]
    print(
        f"judge ({cfg.judge.name}) {cfg.model.name}{what}: {rows} rows, {status.get('ok', 0)} "
        f"scored, {status.get('invalid', 0)} invalid, {status.get('error', 0)} errors, "
        f"{status.get('skipped', 0)} skipped; {summary['injection']['responses']} responses "
        f"address the judge, {summary['self_judged_rows']} self-judged rows -> {path}"
    )
    repeats = cfg.judge.repeats
    what = f"self-consistency ({repeats} asks)" if repeats > 1 else "jury"
    pairs = "pairs of asks" if repeats > 1 else "juror pairs"
    for agreement in summary.get("jury_agreement", []):
        alpha, share = agreement["alpha"], agreement["percent_agreement"]
        print(
            f"  {what} agreement on {agreement['metric']}: "
            f"{'–' if share is None else f'{share:.2f}'} of {pairs} agree, Krippendorff's "
            f"alpha ({agreement['alpha_level']}) {'–' if alpha is None else f'{alpha:.3f}'} "
            f"over {agreement['items']} items"
        )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
