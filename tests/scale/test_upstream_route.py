"""The documented route on upstream's own files: `parakh import-data <dataset> --source <fixture>`
then `dvc repro` gives each benchmark a leaderboard whose header says curate kept every item.

The fixtures (tests/datasets/fixtures/, README there) are real files of each upstream repository
at the commit its config pins, under upstream's paths: XQuAD's `xquad.hi.json` and
`xquad.en.json` (each imported as the one file `parakh import-data xquad_hi` brings),
IndicQuest's `L3Cube-IndicQuest/` folder, MedQuAD's repository root, and LiveQA-Med's two files
(MedQuAD's qrels zip and LiveQA's question XML) in one folder. The five datasets share
one DVC project and one `dvc repro`, with the cheap settings: the extractive baseline, the
reference judge, BM25 retrieval and the hashing embedder.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from parakh.testing.dvc_project import copy_project, git_init, stage_env, update_yaml
from tests.conftest import REPO

pytestmark = pytest.mark.slow

FIXTURES = REPO / "tests" / "datasets" / "fixtures"
# dataset -> (the --source the docs' command is given, questions upstream's files hold there)
SOURCES = {
    "xquad_hi": ("xquad_upstream/xquad.hi.json", 30),
    "xquad_en": ("xquad_upstream/xquad.en.json", 30),
    "indicquest": ("indicquest_upstream/L3Cube-IndicQuest", 40),
    "medquad": ("medquad_upstream", 16),
    "liveqa_judgments": ("liveqa_upstream", 3),
}


def _run(cmd: list[str], root: Path, env: dict[str, str]) -> str:
    out = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout


def test_imported_upstream_files_reach_the_leaderboard_whole(tmp_path: Path) -> None:
    root = tmp_path / "project"
    copy_project(REPO, root)
    env = stage_env(root)
    git_init(root, env)
    for dataset, (source, _) in SOURCES.items():
        _run(["parakh", "import-data", dataset, "--source", str(FIXTURES / source)], root, env)
    _run(["git", "add", "-A"], root, env)
    _run(["git", "commit", "-q", "-m", "import the upstream fixtures"], root, env)
    update_yaml(
        root / "params.yaml",
        datasets=list(SOURCES),
        models=["extractive"],
        judge="reference",
        embedder="hashing",
        retriever="bm25",
    )
    _run(["dvc", "repro"], root, env)
    for dataset, (_, items) in SOURCES.items():
        reports = root / "reports" / dataset / "reference"
        board = json.loads((reports / "leaderboard.json").read_text(encoding="utf-8"))
        assert board["models"] == ["extractive"], dataset
        assert board["curation"] == {
            "rows_in": items,
            "rows_out": items,
            "dropped": {},
            "quarantined": 0,
        }, dataset
        header = f"Curated questions: {items} rows in, {items} kept; none dropped."
        assert header in (reports / "leaderboard.md").read_text(encoding="utf-8"), dataset
        assert header in (reports / "report.html").read_text(encoding="utf-8"), dataset
        chrf = next(
            c
            for c in board["cells"]
            if c["metric"] == "chrf" and c["dimension"] == "all" and c["model"] == "extractive"
        )
        assert chrf["n"] + chrf["errors"] + chrf["invalid"] + chrf["skipped"] == items, dataset
