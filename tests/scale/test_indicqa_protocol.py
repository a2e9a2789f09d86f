"""`parakh protocol indicqa --run`: every model zero-shot, 1-shot, 3-shot and translate-test,
ranked on one leaderboard per dataset. Real git and DVC in a temp project; the first four
questions of XQuAD hi (../shared/data; xquad_en runs the same stages, left out for time); the
extractive baseline; translate-test with the offline phrase table instead of IndicTrans2, whose
weights a test machine does not have."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO
from tests.support.dvc_project import copy_project, git_init, run_command, stage_env, update_yaml

pytestmark = pytest.mark.slow

QUESTIONS = 4
MODES = ["extractive", "extractive@1shot", "extractive@3shot", "extractive@translate-test"]
DATASET = "xquad_hi"


def _first_questions(path: Path) -> dict[str, Any]:
    """The upstream file cut to its first paragraph's first QUESTIONS questions."""
    upstream = json.loads(path.read_text(encoding="utf-8"))
    article = upstream["data"][0]
    paragraph = article["paragraphs"][0]
    paragraph = {**paragraph, "qas": paragraph["qas"][:QUESTIONS]}
    return {**upstream, "data": [{**article, "paragraphs": [paragraph]}]}


def _project(root: Path, shared_data: Path) -> dict[str, str]:
    copy_project(REPO, root)
    raw = root / "data" / "raw" / DATASET  # one file, as `parakh import-data` puts it
    cut = _first_questions(shared_data / "xquad" / "xquad.hi.json")
    raw.write_text(json.dumps(cut, ensure_ascii=False), encoding="utf-8")
    update_yaml(root / "params.yaml", models=["extractive"], embedder="hashing")
    protocol = root / "conf" / "protocol" / "indicqa.yaml"
    preset = yaml.safe_load(protocol.read_text(encoding="utf-8"))
    assert preset["params"]["datasets"] == [DATASET, "xquad_en"]
    preset["params"]["datasets"] = [DATASET]
    preset["params"]["translate_test"][0]["translator"] = "dictionary_demo"
    protocol.write_text(yaml.safe_dump(preset, sort_keys=False, allow_unicode=True))
    env = stage_env(root)
    git_init(root, env)
    return env


def _generations(root: Path, name: str) -> list[dict[str, Any]]:
    path = root / "data" / "processed" / DATASET / "generate" / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _board_entries(report: Path) -> set[str]:
    with (report / "leaderboard.csv").open(encoding="utf-8") as f:
        return {r["model"] for r in csv.DictReader(f)}


def test_the_protocol_puts_every_mode_on_one_leaderboard(shared_data: Path, tmp_path: Path) -> None:
    root = tmp_path / "project"
    env = _project(root, shared_data)
    out = run_command(["parakh", "protocol", "indicqa", "--run"], root, env, timeout=600)
    assert out.returncode == 0, f"{out.stdout}\n{out.stderr}"
    report = root / "reports" / DATASET / "reference"
    ranked = re.findall(r"^\| \d+ \| (.+?) \|", (report / "leaderboard.md").read_text(), re.M)
    # one table ranks all four; translate-test names its translator (`... via <translator>`)
    assert sorted(m.split(" via ")[0] for m in ranked) == MODES
    assert "extractive@translate-test" not in _board_entries(report)  # no empty direct row
    with (report / "leaderboard.csv").open(encoding="utf-8") as f:
        assert set(ranked) <= {r["model"] for r in csv.DictReader(f)}
    for name, shots in (("extractive@1shot", 1), ("extractive@3shot", 3)):
        answers = _generations(root, name)
        assert len(answers) == QUESTIONS
        for answer in answers:  # system, k example turns (question, answer), the question
            assert len(answer["messages"]) == 2 + 2 * shots
    translated = _generations(root, "extractive@translate-test")
    assert len(translated) == QUESTIONS and all(a["translation"] for a in translated)
