"""Artifact bytes each aggregate adds to MLflow, on a fixed synthetic project.

    python bench/mlflow_artifacts.py --shape n1000 --label after
    PYTHONPATH=/tmp/mlflow_before/src python bench/mlflow_artifacts.py --shape n1000 --label before

Writes the project of `bench/aggregate_scale.py` (`n<N>`: N questions x 4 languages x 5 models)
as a git repository, then runs `python -m parakh.stages.aggregate judge=scale
tracking.enabled=true tracking.uri=sqlite:///<root>/mlflow.db` four times, one at a time:
`first` (an empty store), `unchanged` (the same inputs and commit), `new_commit` (an empty git
commit: the same inputs, a new sweep, as after any code change) and `one_judge_file_changed`
(one score of model00's judge rows changed). After each it sums the files under the artifact
root (`<root>/mlruns`) and sorts the files added by kind (content store, `inputs/`, whole-file
`samples/`, per-sample tables, report, ...). Results go to bench/results/mlflow_artifacts.json
under the shape and `--label` (before/after a change; `parakh` says which source ran).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from aggregate_scale import JUDGE, shape_of, write_project

from parakh.io import write_json

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "mlflow_artifacts.json"
STEPS = ["first", "unchanged", "new_commit", "one_judge_file_changed"]


def artifact_files(root: Path) -> dict[str, int]:
    """Every file under the artifact root -> its bytes."""
    mlruns = root / "mlruns"
    if not mlruns.is_dir():
        return {}
    return {str(p.relative_to(mlruns)): p.stat().st_size for p in mlruns.rglob("*") if p.is_file()}


def kind_of(relative: str) -> str:
    """What an artifact is, from its path under <experiment>/<run>/artifacts/."""
    parts = relative.split("/")
    if len(parts) < 4 or parts[2] != "artifacts":
        return "run metadata"
    path = "/".join(parts[3:])
    for prefix, kind in (
        ("sha256/", "content store"),
        ("inputs/", "inputs/"),
        ("samples/", "samples/ (model runs)"),
        ("report/", "report/"),
        ("leaderboard/", "leaderboard tables"),
    ):
        if path.startswith(prefix):
            return kind
    if path == "judgments.json":
        return "per-sample tables (language runs)"
    return "other"


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b"}
    env |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def change_one_score(path: Path) -> None:
    """Change the score of the first scored row of a judge file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        row = json.loads(line)
        if isinstance(row.get("score"), int | float):
            row["score"] = 0.0 if row["score"] else float(row["scale_max"])
            lines[i] = json.dumps(row, ensure_ascii=False, sort_keys=True)
            break
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def aggregate(root: Path) -> tuple[float, str]:
    """One aggregate logging to the project's sqlite store: wall time and its last line."""
    command = [
        sys.executable,
        "-m",
        "parakh.stages.aggregate",
        f"judge={JUDGE}",
        "tracking.enabled=true",
        f"tracking.uri=sqlite:///{root / 'mlflow.db'}",
    ]
    env = {**os.environ, "PARAKH_ROOT": str(root), "MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR": "false"}
    start = time.perf_counter()
    out = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(f"aggregate failed in {root}:\n{out.stdout[-2000:]}{out.stderr[-3000:]}")
    lines = [line for line in out.stdout.splitlines() if "MLflow" in line]
    return wall, " | ".join(lines)


def step(root: Path, name: str) -> dict[str, Any]:
    if name == "new_commit":
        _git(root, "commit", "--allow-empty", "-q", "-m", "code change")
    if name == "one_judge_file_changed":
        change_one_score(root / "data/processed/demo/judge" / JUDGE / "model00.jsonl")
    before = artifact_files(root)
    wall, printed = aggregate(root)
    after = artifact_files(root)
    added = {p: b for p, b in after.items() if p not in before or before[p] != b}
    by_kind: dict[str, int] = {}
    for path, size in added.items():
        by_kind[kind_of(path)] = by_kind.get(kind_of(path), 0) + size
    return {
        "bytes_added": sum(after.values()) - sum(before.values()),
        "files_added": len(set(after) - set(before)),
        "bytes_added_by_kind": dict(sorted(by_kind.items(), key=lambda kv: -kv[1])),
        "artifact_root_bytes": sum(after.values()),
        "wall_s": round(wall, 1),
        "printed": printed,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", default="n1000")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/parakh-mlflow-artifacts"))
    parser.add_argument("--label", default="after", help="results key: before or after")
    args = parser.parse_args(argv)
    shape = shape_of(args.shape)
    root = args.workdir / args.shape
    write_project(root, shape)
    data = sum(p.stat().st_size for p in (root / "data").rglob("*") if p.is_file())
    _git(root, "init", "-q")
    _git(root, "commit", "--allow-empty", "-q", "-m", "start")
    source = subprocess.run(
        [sys.executable, "-c", "import parakh; print(parakh.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    found: dict[str, Any] = {"parakh": source, "data_bytes": data, "steps": {}}
    for name in STEPS:
        found["steps"][name] = step(root, name)
        print(args.shape, args.label, name, json.dumps(found["steps"][name]), flush=True)
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results.setdefault(args.shape, {})[args.label] = found
    write_json(RESULTS, results)


if __name__ == "__main__":
    main()
