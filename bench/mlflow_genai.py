"""What `tracking.genai=true` costs: seconds and MB of MLflow logging for 10,000 judge rows.

    python bench/mlflow_genai.py [--rows 10000] [--stores sqlite,server]

Builds a project of 2 models x N/8 questions x 4 metrics (2 judged, 2 reference) in five
languages, with answers, references, justifications and three retrieved chunks a question, and
runs aggregate's MLflow logging on it twice per store, each time into a new store: with the
GenAI logging off (runs, metrics, tables, datasets, artifacts: what aggregate logs anyway) and
on (the same plus a trace per answer with its assessments, and the evaluation dataset). The
stores: a SQLite file (the default) and a local `mlflow server` on it. The leaderboard is
computed once, outside the timings. Results go to bench/results/mlflow_genai.json.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # tests.support: the MLflow server on loopback
MODELS = ["alpha", "beta"]
LANGUAGES = ["en", "hi", "ta", "te", "kn"]
METRICS = {"factual_correctness": 2.0, "coherence": 2.0, "token_f1": 1.0, "chrf": 100.0}
JUDGE = {"rubrics": ["factual_correctness", "coherence"], "reference_metrics": ["token_f1", "chrf"]}


def make_project(root: Path, n_questions: int) -> None:
    """conf/ of this checkout (the smoke judge scoring METRICS) and aggregate's inputs."""
    from parakh.io import write_jsonl
    from parakh.schema import Generation, Judgment, Question, Retrieval, RetrievedChunk

    shutil.copytree(REPO / "conf", root / "conf")
    judge_file = root / "conf" / "judge" / "smoke.yaml"
    judge = yaml.safe_load(judge_file.read_text(encoding="utf-8")) | JUDGE
    judge_file.write_text(yaml.safe_dump(judge, sort_keys=False), encoding="utf-8")
    questions = [
        Question(
            id=f"q{i:05d}",
            text=f"Question {i}: how long after cataract surgery can I use eye drops? " * 2,
            language=LANGUAGES[i % len(LANGUAGES)],
            categories=[["kb-update"], [], ["code-mixed"]][i % 3],
            domain="cataract",
            reference_answers=[f"Reference {i}: use the drops four times a day for a week. " * 3],
            asked_at=date(2024, 8, 1),
        )
        for i in range(n_questions)
    ]
    processed = root / "data" / "processed" / "demo"
    write_jsonl(processed / "curate" / "questions.jsonl", questions)
    chunk = "Post-operative care: antibiotic and steroid drops for four weeks, tapering. " * 4
    write_jsonl(
        processed / "index" / "retrieval.jsonl",
        [
            Retrieval(
                question_id=q.id,
                raw_chunks=[
                    RetrievedChunk(
                        chunk_id=f"{q.id}-{k}", document_id="d", kind="raw", text=chunk, score=1.0
                    )
                    for k in range(3)
                ],
                kb_update_chunks=[],
            )
            for q in questions
        ],
    )
    for m, model in enumerate(MODELS):
        answer = f"{model}: use the drops as your surgeon told you, and do not rub the eye. " * 4
        answers = [
            Generation(question_id=q.id, model=model, status="ok", response=answer)
            for q in questions
        ]
        write_jsonl(processed / "generate" / f"{model}.jsonl", answers)
        rows = []
        for i, q in enumerate(questions):
            for k, (metric, scale) in enumerate(METRICS.items()):
                value = ((i * 7 + k * 3 + m * 5) % 10) / 10
                score = float(round(value * 2)) if scale == 2.0 else round(value * scale, 4)
                rows.append(
                    Judgment(
                        question_id=q.id,
                        model=model,
                        judge="smoke",
                        metric=metric,
                        language=q.language,
                        categories=q.categories,
                        status="ok",
                        score=score,
                        scale_max=scale,
                        justification="The answer matches the reference on dosage." * 2,
                    )
                )
        write_jsonl(processed / "judge" / "smoke" / f"{model}.jsonl", rows)


def folder_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def log_once(project: Path, store: Path, kind: str, genai: bool) -> dict[str, Any]:
    """Compute nothing new: build the sweep and time `log_sweep` into a new store."""
    from tests.support.servers import start_mlflow_server

    from parakh.config import compose
    from parakh.report.aggregate_result import compute
    from parakh.report.files import ReportFiles
    from parakh.stage_outputs import Layout
    from parakh.stages.aggregate import load_inputs
    from parakh.tracking.client import open_client
    from parakh.tracking.mlflow_log import log_sweep
    from parakh.tracking.sweep import build_sweep

    overrides = [
        "aggregate.statistics.bootstrap_resamples=200",
        "aggregate.statistics.permutations=200",
        "aggregate.answers_page=false",
        f"tracking.genai={'true' if genai else 'false'}",
    ]
    cfg = compose(overrides)
    layout = Layout.of(cfg)
    inputs = load_inputs(cfg, layout, MODELS)
    result = compute(cfg, inputs)
    files = ReportFiles(layout.reports)
    scratch = store / "scratch"
    scratch.mkdir(parents=True)
    os.chdir(store)  # a SQLite store's artifacts go to ./mlruns

    def timed(uri: str) -> tuple[float, Any, list[str]]:
        open_client(uri).search_experiments(max_results=1)  # a new store: tables made first
        start = time.perf_counter()
        sweep = build_sweep(cfg, result, inputs, layout, files, commit="bench", scratch=scratch)
        ids = log_sweep(uri, sweep)
        return time.perf_counter() - start, sweep, ids.notes

    if kind == "server":
        with start_mlflow_server(store / "server") as server:
            seconds, sweep, notes = timed(server.url)
    else:
        seconds, sweep, notes = timed(f"sqlite:///{store / 'mlflow.db'}")
    shutil.rmtree(scratch)
    answers = sum(len(a) for a in sweep.genai.answers.values()) if sweep.genai else 0
    out = {"seconds": round(seconds, 2), "mb": round(folder_mb(store), 2), "traces": answers}
    return out | ({"genai": notes[0]} if notes else {})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000, help="judge rows (a multiple of 8)")
    parser.add_argument("--stores", default="sqlite,server")
    parser.add_argument("--out", type=Path, default=REPO / "bench/results/mlflow_genai.json")
    args = parser.parse_args()
    from parakh.io import write_json

    n_questions = args.rows // (len(MODELS) * len(METRICS))
    rows = n_questions * len(MODELS) * len(METRICS)
    report: dict[str, Any] = {
        "judge_rows": rows,
        "answers": n_questions * len(MODELS),
        "models": len(MODELS),
        "languages": len(LANGUAGES),
        "metrics": len(METRICS),
        "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "stores": {},
    }
    with tempfile.TemporaryDirectory(prefix="parakh-genai-bench-") as tmp:
        project = Path(tmp) / "project"
        os.environ["PARAKH_ROOT"] = str(project)
        os.environ["MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR"] = "false"
        make_project(project, n_questions)
        for kind in args.stores.split(","):
            off = log_once(project, Path(tmp) / f"{kind}-off", kind, genai=False)
            on = log_once(project, Path(tmp) / f"{kind}-on", kind, genai=True)
            extra_s, extra_mb = on["seconds"] - off["seconds"], on["mb"] - off["mb"]
            report["stores"][kind] = {
                "without_genai": off,
                "with_genai": on,
                "genai_seconds": round(extra_s, 2),
                "genai_mb": round(extra_mb, 2),
                "genai_seconds_per_1000_rows": round(1000 * extra_s / rows, 2),
                "genai_mb_per_1000_rows": round(1000 * extra_mb / rows, 2),
            }
            print(kind, report["stores"][kind], flush=True)
    write_json(args.out, report)
    print(f"-> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
