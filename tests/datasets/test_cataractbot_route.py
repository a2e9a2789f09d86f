"""The README's quick start on upstream's CataractBot tree, through DVC: `parakh import-data
cataractbot` into a fresh git + DVC project, commit, then `dvc exp run` with the README's
settings (the extractive model alone and the hashing embedder, to keep it short).

The fixture (tests/datasets/fixtures/cataractbot_upstream, upstream's paths at the pinned
commit with the first lines of each file) is imported by the command as documented, with no
`--source`: its `dvc import` here reads a local git repository holding the fixture at upstream's
path (the project copy's conf/dataset/cataractbot.yaml points `source.repo`/`rev` at it). The
`--source` form (dvc import-url) runs through DVC in tests/scale/test_upstream_route.py."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from parakh.io import read_jsonl
from parakh.schema import Question
from tests.conftest import REPO
from tests.datasets.test_cataractbot_upstream import (
    BLR_QUESTIONS,
    FIXTURE,
    GENERIC_QUESTIONS,
)
from tests.support.dvc_project import copy_project, git_init, run_command, stage_env

pytestmark = pytest.mark.slow

UPSTREAM_PATH = "data/cataract_bot/documents"
README_RUN = [  # the README's `dvc exp run`, less SmolLM2, with the hashing embedder
    "dvc", "exp", "run", "-n", "cataractbot", "-S", "datasets=[cataractbot]",
    "-S", "models=[extractive]", "-S", "judge=reference", "-S", "embedder=hashing",
    "-S", "conf/dataset/cataractbot.yaml:per_language=25",
]  # fmt: skip


def _run(cmd: list[str], root: Path, env: dict[str, str]) -> str:
    out = run_command(cmd, root, env)
    assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout + out.stderr


def _upstream_repo(folder: Path, env: dict[str, str]) -> tuple[str, str]:
    """A git repository holding the fixture where byoeb holds it; (repo, commit)."""
    shutil.copytree(FIXTURE, folder)
    git_init(folder, env, "CataractBot documents at upstream's path")
    return str(folder), _run(["git", "rev-parse", "HEAD"], folder, env).strip()


def _point_source_at(root: Path, repo: str, rev: str) -> None:
    conf = root / "conf/dataset/cataractbot.yaml"
    document = yaml.safe_load(conf.read_text(encoding="utf-8"))
    assert document["source"]["path"] == UPSTREAM_PATH
    document["source"]["repo"], document["source"]["rev"] = repo, rev
    conf.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")


@pytest.fixture
def imported(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """A fresh project with CataractBot imported and committed, as the README says."""
    root = tmp_path / "project"
    copy_project(REPO, root)
    env = stage_env(root)
    git_init(root, env)
    _point_source_at(root, *_upstream_repo(tmp_path / "byoeb", env))
    _run(["git", "commit", "-q", "-am", "byoeb here"], root, env)
    _run(["parakh", "import-data", "cataractbot"], root, env)
    _run(["git", "add", "data/raw/cataractbot.dvc", "data/raw/.gitignore"], root, env)
    _run(["git", "commit", "-q", "-m", "Import CataractBot"], root, env)
    yield root, env


def test_readme_quick_start_gives_a_leaderboard(imported: tuple[Path, dict[str, str]]) -> None:
    root, env = imported
    dvc_file = yaml.safe_load((root / "data/raw/cataractbot.dvc").read_text())
    assert dvc_file["outs"][0]["md5"].endswith(".dir")
    assert sorted(p.name for p in (root / "data/raw/cataractbot").iterdir()) == [
        "BLR", "Generic", "HYD", "JAI", "TEST"
    ]  # fmt: skip
    _run(README_RUN, root, env)
    questions = read_jsonl(root / "data/processed/cataractbot/curate/questions.jsonl", Question)
    assert {q.id: q.text for q in questions} == GENERIC_QUESTIONS | BLR_QUESTIONS
    board = json.loads((root / "reports/cataractbot/reference/leaderboard.json").read_text())
    chrf = next(
        c
        for c in board["cells"]
        if c["model"] == "extractive" and c["metric"] == "chrf" and c["dimension"] == "all"
    )
    assert chrf["n"] + chrf["errors"] == len(questions) == 5 and chrf["mean"] > 0
    assert (root / "reports/cataractbot/reference/report.html").is_file()
