"""Evaluation modes under `dvc repro`: adding a prompt variant and a translate-test variant to
params.yaml runs only their stages (translate, generate, back-translate, judge per model) and
aggregate, and both reach the leaderboard; a model file's settings are params whose values
`dvc params diff` shows. Real git and DVC in a temp project, cheap models, four questions."""

from __future__ import annotations

import csv
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from tests.support.dvc_project import copy_project, git_init, stage_env, update_yaml

pytestmark = pytest.mark.slow

QUESTIONS = 4
PROMPT_VARIANT = {"name": "abstractive", "prompt": "xquad_abstractive", "shots": 0}
TT_VARIANT = {"name": "tt-dict", "translator": "dictionary_demo", "prompt": None, "shots": 0}


def _run(cmd: list[str], root: Path, env: dict[str, str]) -> str:
    out = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout + out.stderr


def _ran(output: str) -> set[str]:
    return {line.split("'")[1] for line in output.splitlines() if line.startswith("Running stage")}


def _commit(root: Path, env: dict[str, str], message: str) -> None:
    _run(["git", "add", "-A"], root, env)
    _run(["git", "commit", "-q", "-m", message], root, env)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    root = tmp_path_factory.mktemp("dvc-variants") / "project"
    copy_project(REPO, root)
    update_yaml(root / "conf/dataset/demo.yaml", limit=QUESTIONS)
    echo = {
        "name": "echo",
        "backend": "scripted",
        "default_response": "{question}",
        "sampling": {"temperature": 0.0},
    }
    (root / "conf/model/echo.yaml").write_text(yaml.safe_dump(echo))
    update_yaml(
        root / "params.yaml",
        models=["extractive", "echo"],
        judge="reference",
        embedder="hashing",
        variants=[],
        translate_test=[],
    )
    env = stage_env(root)
    git_init(root, env)
    yield root, env


def _leaderboard(root: Path) -> list[str]:
    (path,) = sorted(root.glob("reports/demo/**/leaderboard.csv"))
    with path.open(encoding="utf-8") as f:
        return [row["model"] for row in csv.DictReader(f)]


def test_direct_inference_runs_alone_with_todays_file_names(
    project: tuple[Path, dict[str, str]],
) -> None:
    root, env = project
    ran = _ran(_run(["dvc", "repro"], root, env))
    assert "generate@demo-echo" in ran and "judge@demo-extractive" in ran
    assert not any("-tt@" in s or "-variant@" in s for s in ran)
    processed = root / "data/processed/demo"
    assert sorted(p.name for p in (processed / "generate").glob("*.jsonl")) == [
        "echo.jsonl",
        "extractive.jsonl",
    ]
    assert not (processed / "translate").exists() and not (processed / "pivot").exists()
    _commit(root, env, "direct")


def test_adding_variants_runs_only_their_stages_and_aggregate(
    project: tuple[Path, dict[str, str]],
) -> None:
    root, env = project
    params = yaml.safe_load((root / "params.yaml").read_text())
    params.update(variants=[PROMPT_VARIANT], translate_test=[TT_VARIANT])
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    ran = _ran(_run(["dvc", "repro"], root, env))
    per_model = {
        f"{stage}@demo-{model}-variant0"
        for model in ("extractive", "echo")
        for stage in (
            "generate-variant",
            "judge-variant",
            "generate-tt",
            "back-translate-tt",
            "judge-tt",
        )
    }
    assert ran == per_model | {"translate-tt@demo-variant0", "aggregate@demo"}

    processed = root / "data/processed/demo"
    rows = [json.loads(line) for line in (processed / "generate/echo@tt-dict.jsonl").open()]
    assert len(rows) == QUESTIONS and all(r["translation"] for r in rows)
    english = [json.loads(line) for line in (processed / "pivot/echo@tt-dict.jsonl").open()]
    assert [r["question_id"] for r in english] == [r["question_id"] for r in rows]
    assert (processed / "translate/tt-dict/retrieval.jsonl").is_file()
    prompted = [json.loads(line) for line in (processed / "generate/echo@abstractive.jsonl").open()]
    assert all("paragraph" in r["messages"][0]["content"] for r in prompted)

    board = _leaderboard(root)
    for model in ("extractive", "echo"):
        assert model in board and f"{model}@abstractive" in board
        assert any(m.startswith(f"{model}@tt-dict via ") for m in board), board
        assert f"{model}@tt-dict" not in board, board  # no empty direct entry beside it
    _commit(root, env, "variants")
    assert _ran(_run(["dvc", "repro"], root, env)) == set()


def test_a_model_setting_shows_as_a_param_value(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    model = root / "conf/model/echo.yaml"
    model.write_text(model.read_text().replace("temperature: 0.0", "temperature: 0.7"))
    diff = json.loads(_run(["dvc", "params", "diff", "--json"], root, env))
    change = diff["conf/model/echo.yaml"]["sampling.temperature"]
    assert (change["old"], change["new"]) == (0.0, 0.7)  # values, not file hashes
    status = _run(["dvc", "status"], root, env)
    assert "generate@demo-echo" in status and "generate@demo-extractive:" not in status
