"""The documented route on upstream's own files: `parakh import-data <dataset>` then `dvc repro`
gives each benchmark a leaderboard whose header says curate kept every item.

The fixtures (tests/datasets/fixtures/, README there) are real files of each upstream repository
at the commit its config pins, under upstream's paths. XQuAD hi and IndicQuest are imported with
`--source <fixture>` (XQuAD's `xquad.hi.json`, the one file the import brings; IndicQuest's
`L3Cube-IndicQuest/` folder); XQuAD en, MedQuAD and LiveQA-Med with the command as the configs
document it, no `--source`: `dvc import` from local git repositories holding the fixtures at
upstream's paths (XQuAD's root files, MedQuAD's whole root, MedQuAD's qrels zip and LiveQA's
`TestDataset/` XML), each config's `source` pointed at them. The five datasets share one DVC
project and one `dvc repro`, with the cheap settings: the extractive baseline, the reference
judge, BM25 retrieval and the hashing embedder.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from tests.datasets.liveqa_upstream import XML, ZIP, point_source_at
from tests.support.dvc_project import copy_project, git_init, stage_env, update_yaml

pytestmark = pytest.mark.slow

FIXTURES = REPO / "tests" / "datasets" / "fixtures"
# dataset -> (the fixture: --source, or the repository root a local upstream holds, questions)
SOURCES = {
    "xquad_hi": ("xquad_upstream/xquad.hi.json", 30),
    "xquad_en": ("xquad_upstream", 30),
    "indicquest": ("indicquest_upstream/L3Cube-IndicQuest", 40),
    "medquad": ("medquad_upstream", 16),
    "liveqa_judgments": ("liveqa_upstream", 3),
}
WITH_SOURCE = ("xquad_hi", "indicquest")


def _run(cmd: list[str], root: Path, env: dict[str, str]) -> str:
    out = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout


def _local_upstream(folder: Path, files: dict[str, Path], env: dict[str, str]) -> tuple[str, str]:
    """A git repository at `folder` holding `files` ({path in the repository: fixture file or
    folder}); returns (its path, its commit)."""
    for inner, fixture in files.items():
        target = folder / inner
        target.parent.mkdir(parents=True, exist_ok=True)
        if fixture.is_dir():
            shutil.copytree(fixture, target, dirs_exist_ok=True)
        else:
            shutil.copy(fixture, target)
    git_init(folder, env)
    return str(folder), _run(["git", "rev-parse", "HEAD"], folder, env).strip()


def _point_source(root: Path, dataset: str, repo: str, rev: str) -> None:
    """conf/dataset/<dataset>.yaml of the project imports from `repo` at `rev`."""
    conf = root / f"conf/dataset/{dataset}.yaml"
    document = yaml.safe_load(conf.read_text(encoding="utf-8"))
    document["source"]["repo"], document["source"]["rev"] = repo, rev
    conf.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")


def _import_from_local_upstreams(root: Path, env: dict[str, str]) -> None:
    """`parakh import-data <dataset>`, no --source, for XQuAD en, MedQuAD and LiveQA-Med."""
    upstreams = root.parent / "upstream"
    xquad = FIXTURES / "xquad_upstream"
    _point_source(root, "xquad_en", *_local_upstream(upstreams / "xquad", {".": xquad}, env))
    medquad = FIXTURES / "medquad_upstream"
    _point_source(root, "medquad", *_local_upstream(upstreams / "MedQuAD", {".": medquad}, env))
    liveqa, xml = FIXTURES / "liveqa_upstream", f"TestDataset/{XML}"
    zip_repo = _local_upstream(upstreams / "MedQuAD-qrels", {ZIP: liveqa / ZIP}, env)
    xml_repo = _local_upstream(upstreams / "LiveQA", {xml: liveqa / xml}, env)
    point_source_at(root, {ZIP: zip_repo, xml: xml_repo})
    for dataset in ("xquad_en", "medquad", "liveqa_judgments"):
        _run(["parakh", "import-data", dataset], root, env)


def test_imported_upstream_files_reach_the_leaderboard_whole(tmp_path: Path) -> None:
    root = tmp_path / "project"
    copy_project(REPO, root)
    env = stage_env(root)
    git_init(root, env)
    for dataset in WITH_SOURCE:
        source = str(FIXTURES / SOURCES[dataset][0])
        _run(["parakh", "import-data", dataset, "--source", source], root, env)
    _import_from_local_upstreams(root, env)
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
