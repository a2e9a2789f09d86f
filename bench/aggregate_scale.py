"""aggregate's wall time and peak memory at scale, on fixed synthetic projects.

    python bench/aggregate_scale.py --shapes n1000 n20000 n100000 study --workdir /tmp/agg

Shapes: `n<N>` is N questions in 4 languages x 5 models x the reference judge's 4 metrics
(4N x 5 judge rows: n100000 is 2 million); `study` is 24 models x 10 languages x 1,000
questions x 8 metrics (the smoke judge's 4 rubrics and 4 reference metrics, 1.92 million rows,
2,484 paired tests with the weighted aggregate). Every project is written from a fixed seed
(the same files on every run, each generation with a full-length prompt, a few error, invalid
and skipped rows), then `python -m parakh.stages.aggregate` runs on it in a child process with
MLflow off (`tracking.enabled=false`; `--mlflow` logs to a scratch sqlite store instead). The
child's wall time, CPU time and peak RSS (os.wait4) go to bench/results/aggregate_scale.json,
one entry per shape and label (before/after), with the machine's load average at the start:
the machine is shared, and CPU time is the figure a busy machine distorts least.
`--write-only` writes the projects and stops (for byte comparisons of the reports they give).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from parakh.io import atomic_open, dumps, write_json

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "aggregate_scale.json"
SEED = 19
JUDGE = "scale"  # conf/judge/scale.yaml of the written project
RUBRICS = ["factual_correctness", "semantic_similarity", "coherence", "conciseness"]
REFERENCE = ["token_f1", "rouge_l", "chrf", "language_match"]
LANGUAGES = ["en", "hi", "ta", "bn", "te", "mr", "gu", "kn", "ml", "pa"]
CATEGORIES = [[], ["condition-specific"], [], ["kb-update"], ["code-mixed", "romanized"], []]
DOMAINS = ["cataract-surgery", "diabetes"]
SYSTEM = (
    "You are HealthBot, an assistant that answers questions from patients and their "
    "attendants about cataract surgery at an eye hospital. Answer concisely, in at most three "
    "sentences, using only the knowledge base given below. Never use outside knowledge. " * 3
)


@dataclass(frozen=True)
class Shape:
    name: str
    questions: int
    languages: int
    models: int
    rubrics: bool  # the smoke judge's rubrics too (8 metrics and a weighted aggregate)

    @property
    def metrics(self) -> list[str]:
        return [*RUBRICS, *REFERENCE] if self.rubrics else list(REFERENCE)

    @property
    def judge_rows(self) -> int:
        return self.questions * self.models * len(self.metrics)


def shape_of(name: str) -> Shape:
    if name == "study":
        return Shape(name, 10_000, 10, 24, rubrics=True)
    if name.startswith("n") and name[1:].isdigit():
        return Shape(name, int(name[1:]), 4, 5, rubrics=False)
    raise SystemExit(f"unknown shape {name!r}: n<questions> or study")


def _question(i: int, shape: Shape) -> dict[str, Any]:
    language = LANGUAGES[i % shape.languages]
    return {
        "id": f"q{i:06d}",
        "text": f"Question {i}: till what time can I eat on the day of my surgery?",
        "language": language,
        "response_language": language,
        "categories": CATEGORIES[i % len(CATEGORIES)],
        "domain": DOMAINS[(i // 7) % len(DOMAINS)],
        "reference_answers": [f"Reference answer {i}: eat a light meal 4 hours before."],
    }


def _judge_row(qid: str, language: str, categories: list[str], model: str) -> dict[str, Any]:
    return {
        "categories": categories,
        "flags": [],
        "injection_cues": [],
        "judge": JUDGE,
        "justification": None,
        "label": None,
        "language": language,
        "model": model,
        "question_id": qid,
        "raw_output": None,
        "reason": None,
        "scale_max": 1.0,
        "score": None,
        "status": "ok",
        "translator": None,
        "votes": {},
    }


def write_project(root: Path, shape: Shape) -> None:
    """conf/ (copied, plus conf/judge/scale.yaml), params.yaml, questions, answers, judge rows."""
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(REPO / "conf", root / "conf")
    judge = {
        "name": JUDGE,
        "description": "synthetic rows of bench/aggregate_scale.py",
        "prompt": "judge_healthbot",
        "rubrics": RUBRICS if shape.rubrics else [],
        "reference_metrics": REFERENCE,
        "primary_metric": "weighted" if shape.rubrics else "chrf",
    }
    (root / "conf" / "judge" / f"{JUDGE}.yaml").write_text(yaml.safe_dump(judge), "utf-8")
    models = [f"model{m:02d}" for m in range(shape.models)]
    params = {"datasets": ["demo"], "models": models, "judge": JUDGE, "aggregate": "default"}
    (root / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    processed = root / "data" / "processed" / "demo"
    rng = np.random.default_rng(SEED)
    questions = [_question(i, shape) for i in range(shape.questions)]
    with atomic_open(processed / "curate" / "questions.jsonl") as f:
        for q in questions:
            f.write(dumps(q) + "\n")
    difficulty = rng.random(shape.questions)
    skills = _skills(shape.models)
    for m, model in enumerate(models):
        failed = rng.random(shape.questions) < 0.01
        noise = rng.random((shape.questions, len(shape.metrics)))
        with atomic_open(processed / "generate" / f"{model}.jsonl") as f:
            for i, q in enumerate(questions):
                f.write(dumps(_generation(q, model, bool(failed[i]))) + "\n")
        with atomic_open(processed / "judge" / JUDGE / f"{model}.jsonl") as f:
            for i, q in enumerate(questions):
                value = skills[m] + 0.4 * (difficulty[i] - 0.5)
                for j, metric in enumerate(shape.metrics):
                    row = _judge_row(q["id"], q["language"], q["categories"], model)
                    row["metric"] = metric
                    _score(row, metric, value + 0.3 * (noise[i, j] - 0.5), bool(failed[i]))
                    f.write(dumps(row) + "\n")


def _skills(models: int) -> np.ndarray:
    """Each model's mean before noise: some pairs equal or close, so p-values spread out."""
    if models == 5:
        return np.array([0.45, 0.5, 0.5, 0.501, 0.503])
    return np.linspace(0.48, 0.52, models)


def _generation(q: dict[str, Any], model: str, failed: bool) -> dict[str, Any]:
    user = f"RawChunks:\n[1] {q['reference_answers'][0] * 4}\n\nQuery: {q['text']}"
    return {
        "cached": False,
        "error": "timeout after 3 retries" if failed else None,
        "latency_s": 0.0,
        "messages": [{"content": SYSTEM, "role": "system"}, {"content": user, "role": "user"}],
        "model": model,
        "prompt": None,
        "question_id": q["id"],
        "request_hash": hashlib.sha256(f"{model}:{q['id']}".encode()).hexdigest(),
        "response": None if failed else f"{model} says: eat a light meal before {q['id']}.",
        "status": "error" if failed else "ok",
        "truncation": None,
        "usage": {"completion_tokens": 16, "prompt_tokens": 295},
    }


def _score(row: dict[str, Any], metric: str, value: float, failed: bool) -> None:
    """A score from `value` on the metric's scale, or the status a judge gives instead."""
    value = min(1.0, max(0.0, value))
    row["scale_max"] = 2.0 if metric in RUBRICS else 100.0 if metric == "chrf" else 1.0
    if failed:
        row.update(status="error", reason="the model gave no answer: timeout after 3 retries")
    elif metric in RUBRICS and int(value * 1e6) % 50 == 0:
        row.update(status="invalid", raw_output="??", reason="no JSON object in the output")
    elif metric in RUBRICS:
        row.update(score=float(round(value * 2)), justification="facts agree")
    elif metric == "language_match":
        row["score"] = 1.0 if value > 0.15 else 0.0
    else:
        row["score"] = round(value * row["scale_max"], 4)


def run_aggregate(root: Path, shape: Shape, *, mlflow: bool) -> dict[str, Any]:
    """`python -m parakh.stages.aggregate` in the project: wall time and the child's peak RSS."""
    tracking = [f"tracking.uri=sqlite:///{root / 'mlflow.db'}"] if mlflow else []
    command = [
        sys.executable,
        "-m",
        "parakh.stages.aggregate",
        f"judge={JUDGE}",
        f"tracking.enabled={str(mlflow).lower()}",
        *tracking,
    ]
    env = {**os.environ, "PARAKH_ROOT": str(root)}
    load = os.getloadavg()[0]
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"aggregate failed on {shape.name} ({root})")
    return {
        "questions": shape.questions,
        "models": shape.models,
        "languages": shape.languages,
        "metrics": len(shape.metrics),
        "judge_rows": shape.judge_rows,
        "wall_s": round(wall, 1),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_rss_mb": round(usage.ru_maxrss / 1024),
        "mlflow": mlflow,
        "load_average_at_start": round(load, 2),
        "cores": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", nargs="+", default=["n1000", "n20000"])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/parakh-aggregate-scale"))
    parser.add_argument("--label", default="after", help="results key: before or after")
    parser.add_argument("--mlflow", action="store_true", help="log to a scratch sqlite store")
    parser.add_argument("--write-only", action="store_true")
    parser.add_argument("--reuse", action="store_true", help="keep already-written projects")
    args = parser.parse_args(argv)
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    for name in args.shapes:
        shape = shape_of(name)
        root = args.workdir / name
        if not (args.reuse and (root / "params.yaml").exists()):
            write_project(root, shape)
        if args.write_only:
            continue
        found = run_aggregate(root, shape, mlflow=args.mlflow)
        print(name, found, flush=True)
        results.setdefault(name, {})[args.label] = found
        write_json(RESULTS, results)


if __name__ == "__main__":
    main()
