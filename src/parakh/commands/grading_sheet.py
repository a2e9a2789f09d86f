"""`parakh grading-sheet`: blind grading pages for people, and the key to their answers.

    parakh grading-sheet demo judge=smoke --graders asha,ravi [--per-language 5] \\
        [--metrics factual_correctness,coherence] [seed=7] ['models=[a,b]'] [--out DIR]

Writes to DIR (default grading/<dataset>/) one page per grader, `<sheet>-<grader>.html`: a
single file that works offline (open it from disk, send it by mail), with no model names, its
answers in the grader's own seeded order. And `<sheet>.key.json`, which maps the answer ids to
models: keep it, never send it. A grader grades in a browser and sends back the file the page
downloads, `<sheet>-<grader>.grades.jsonl`; put it in DIR beside the key and point aggregate at
the folder (`aggregate.agreement.human_grades=grading/demo`). See docs/grading.md.
"""

from __future__ import annotations

import argparse
import re

from parakh.commands.grammar import add_out, list_value
from parakh.config import compose
from parakh.errors import ConfigError, InputError
from parakh.io import read_jsonl, write_json, write_text
from parakh.metrics.rubric import load_rubric
from parakh.project import resolve
from parakh.report.grades_file import key_path
from parakh.report.grading_sheet import answer_key, render_sheet, sheet_metrics
from parakh.report.inputs import models_to_aggregate
from parakh.schema import Generation, Question, Retrieval
from parakh.stage_outputs import Layout

HELP = "blind grading pages (one HTML file per grader) and the key to their answers"

GRADER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # in file names and the browser's store


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Write one self-contained HTML grading page per grader (answers blind, shuffled per "
        "grader) and the key that maps its answer ids to models. Graders send back the JSONL "
        "the page downloads; aggregate reads a folder of them beside the key."
    )
    parser.epilog = (
        "Example: parakh grading-sheet demo judge=smoke seed=7 --graders asha,ravi "
        "--per-language 5 (overrides right after the dataset). Send each grader their page "
        "only; keep <sheet>.key.json. Then: parakh aggregate "
        "aggregate.agreement.human_grades=grading/demo (docs/grading.md)."
    )
    parser.add_argument("dataset", help="the dataset whose answers are graded, e.g. demo")
    parser.add_argument(
        "overrides",
        nargs="*",
        help="Hydra overrides: judge=smoke (whose rubrics and sample the sheet follows), "
        "seed=7, 'models=[a,b]' (default: params.yaml's)",
    )
    parser.add_argument(
        "--graders", required=True, help="grader ids, as asha,ravi or [asha,ravi]: one page each"
    )
    parser.add_argument(
        "--per-language",
        type=int,
        default=None,
        metavar="N",
        help="questions per language, drawn as the judge draws its sample (default: the "
        "judge's sample_per_language, else every question)",
    )
    parser.add_argument(
        "--metrics",
        help="rubric metrics to grade, as a,b or [a,b] (default: every rubric metric of the judge)",
    )
    add_out(parser, "the folder for the pages and the key (default: grading/<dataset>)")


def _graders(text: str) -> list[str]:
    graders = list_value(text)
    bad = [g for g in graders if not GRADER_ID.fullmatch(g)]
    if not graders or bad or len(set(graders)) != len(graders):
        raise ConfigError(
            f"--graders {text!r}: give distinct ids of letters, digits, '.', '_' or '-'"
        )
    return graders


def run(args: argparse.Namespace) -> int:
    graders = _graders(args.graders)
    if args.per_language is not None and args.per_language < 1:
        raise ConfigError("--per-language must be at least 1")
    cfg = compose([f"dataset={args.dataset}", *args.overrides])
    layout = Layout.of(cfg)
    sampled = cfg.judge.sample_per_language
    per_language = args.per_language or sampled
    rubrics = [load_rubric(name) for name in cfg.judge.rubrics]
    metrics = sheet_metrics(rubrics, list_value(args.metrics) if args.metrics else None)
    if not layout.curated_questions.is_file():
        raise InputError(layout.curated_questions, "no curated questions: run curate first")
    questions = read_jsonl(layout.curated_questions, Question)
    generations = {}
    for model in models_to_aggregate(cfg):
        path = layout.generations(model)
        if not path.is_file():
            raise InputError(path, f"no answers of model '{model}': run generate for it first")
        generations[model] = read_jsonl(path, Generation)
    retrieval = {}
    if layout.retrieval.is_file():
        retrieval = {r.question_id: r for r in read_jsonl(layout.retrieval, Retrieval)}
    key = answer_key(
        questions,
        generations,
        metrics,
        dataset=cfg.dataset.name,
        judge=cfg.judge.name,
        seed=cfg.seed,
        per_language=per_language,
        graders=graders,
    )
    out = args.out or resolve("grading") / cfg.dataset.name
    by_id = {q.id: q for q in questions}
    for grader in graders:
        page = render_sheet(key, grader, by_id, generations, retrieval, metrics)
        write_text(out / f"{key.sheet}-{grader}.html", page)
        print(f"grading-sheet: {grader} -> {out / f'{key.sheet}-{grader}.html'}")
    write_json(key_path(out, key.sheet), key.model_dump(mode="json"))
    print(f"grading-sheet: {len(key.answers)} answers, key (keep it) -> {key_path(out, key.sheet)}")
    if sampled is not None and (per_language is None or per_language > sampled):
        print(f"grading-sheet: judge '{cfg.judge.name}' scored {sampled} questions a language;")
        print("  grades of the others have no judge score to be compared with")
    return 0
