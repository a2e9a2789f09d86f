"""A failed `dvc repro` or `dvc exp run` throws nothing away, and `dvc plots show` draws every
dataset of params.yaml.

What DVC does (dvc/stage/__init__.py, `Stage.run`): just before running a stage it deletes that
stage's outputs (unless `persist: true`), then runs the command, and stops the pipeline at the
first stage that fails. So a failure leaves every earlier stage's outputs in place and removes
only the failing stage's own; those come back with `dvc checkout` when DVC made them (they are in
the cache) and with `git checkout` for the metrics and plot data (`cache: false`, committed to
git). Outputs made by hand, outside DVC, are in no cache: `dvc commit -f <stage>` first puts them
there. The answers themselves are also kept in the response cache, which no stage declares as an
output, so a rerun after the fix calls no model for them. docs/failures.md: "When a run fails".

Real DVC and git in a temp project: two datasets (the demo and a copy of it), six questions
each, the extractive model, the reference judge, no MLflow. The tests run in order and share it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from tests.scale.test_dvc_experiments import _outputs, _ran, _run
from tests.support.dvc_project import copy_project, git_init, stage_env, update_yaml

pytestmark = pytest.mark.slow

QUESTIONS = 6
DATASETS = ("demo", "demo2")  # demo2: a copy of the demo under another name
PLOT_FILES = ("heatmap.png", "categories.png", "model_language.json", "model_category.json")

Project = tuple[Path, dict[str, str]]


def _dataset_conf(root: Path, name: str) -> None:
    cfg = yaml.safe_load((REPO / "conf/dataset/demo.yaml").read_text())
    cfg.update(name=name, path=f"data/raw/{name}", limit=QUESTIONS)
    (root / f"conf/dataset/{name}.yaml").write_text(yaml.safe_dump(cfg))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    """The project after one successful `dvc repro`, committed to git (dvc.lock, metrics and
    plot data), as a user leaves it."""
    root = tmp_path_factory.mktemp("dvc-failures") / "project"
    copy_project(REPO, root, folders=("conf", "src"))
    for dataset in DATASETS:
        shutil.copytree(REPO / "data/raw/demo", root / f"data/raw/{dataset}")
        _dataset_conf(root, dataset)
    echo = {"name": "echo", "backend": "scripted", "default_response": "{question}"}
    (root / "conf/model/echo.yaml").write_text(yaml.safe_dump(echo))
    update_yaml(
        root / "params.yaml",
        datasets=list(DATASETS),
        models=["extractive"],
        judge="reference",
        embedder="hashing",
    )
    env = stage_env(root)
    git_init(root, env)
    for cmd in (["dvc", "repro"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "first run"]):
        _run(cmd, root, env)
    yield root, env


def _fails(cmd: list[str], root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    out = _run(cmd, root, env, ok=False)
    assert out.returncode != 0, f"{' '.join(cmd)} should have failed:\n{out.stdout}"
    return out


def _restore(root: Path, env: dict[str, str]) -> None:
    """What docs/failures.md tells a user to do after fixing the cause."""
    _run(["git", "checkout", "-q", "--", "params.yaml", "conf"], root, env)
    _run(["dvc", "checkout"], root, env)  # the outputs DVC cached
    _run(["git", "checkout", "-q", "--", "reports"], root, env)  # metrics and plot data
    assert "up to date" in _run(["dvc", "status"], root, env).stdout


def _kept(before: dict[str, bytes], after: dict[str, bytes], removed: str) -> None:
    """Every output outside `removed` is still there, byte for byte; none under it is."""
    kept = {p: b for p, b in before.items() if not p.startswith(removed)}
    assert kept and {p: after.get(p) for p in kept} == kept
    assert [p for p in before if p.startswith(removed)]
    assert not [p for p in after if p.startswith(removed)]


def test_dvc_plots_show_draws_every_dataset(project: Project) -> None:
    root, env = project
    shown = json.loads(_run(["dvc", "plots", "show", "--json"], root, env).stdout)["data"]
    for dataset in DATASETS:
        folder = f"reports/{dataset}/reference/plots"
        assert {f"{folder}/{name}" for name in PLOT_FILES} <= set(shown)
        for name in ("heatmap.png", "categories.png"):
            (image,) = shown[f"{folder}/{name}"]
            assert image["type"] == "image" and Path(image["url"]).stat().st_size > 1000
        for name, axis in (
            ("model_language.json", "language"),
            ("model_category.json", "category"),
        ):
            (plot,) = shown[f"{folder}/{name}"]
            content = plot["content"]
            assert plot["type"] == "vega"
            assert f"({dataset}, judge reference)" in str(content["title"])
            assert content["encoding"]["x"]["field"] == "score"
            assert content["encoding"]["y"]["field"] == "slice"
            values = content["data"]["values"]
            assert values and all(0 <= v["score"] <= 1 and axis in v for v in values)


def test_a_failed_repro_keeps_earlier_outputs_and_its_own_come_back(project: Project) -> None:
    root, env = project
    before = _outputs(root)
    aggregate_conf = root / "conf/aggregate/default.yaml"
    text, replaced = re.subn(
        r"^primary_metric: .*$", "primary_metric: bleu", aggregate_conf.read_text(), flags=re.M
    )
    assert replaced == 1
    aggregate_conf.write_text(text)
    out = _fails(["dvc", "repro"], root, env)
    assert "Unknown metric 'bleu'" in out.stdout + out.stderr
    assert _ran(out) == {"aggregate@demo"}  # the first failure stops the pipeline
    # Every earlier stage's outputs and the other dataset's reports are untouched; DVC removed
    # only the failing stage's own outputs, just before running it.
    _kept(before, _outputs(root), removed="reports/demo/")
    _restore(root, env)
    assert _outputs(root) == before


def test_a_failed_exp_run_keeps_earlier_outputs_and_saves_no_experiment(
    project: Project,
) -> None:
    root, env = project
    before = _outputs(root)
    setting = "conf/judge/reference.yaml:reference_metrics=[token_f2,chrf]"
    out = _fails(["dvc", "exp", "run", "-n", "broken-judge", "-S", setting], root, env)
    assert "Unknown metric 'token_f2'" in out.stdout + out.stderr
    assert _ran(out) == {"judge@demo-extractive"}
    _kept(before, _outputs(root), removed="data/processed/demo/judge/")
    listed = _run(["dvc", "exp", "list", "--name-only"], root, env).stdout
    assert "broken-judge" not in listed
    _restore(root, env)
    assert _outputs(root) == before


def _generate_by_hand(root: Path, env: dict[str, str], dataset: str) -> dict[str, bytes]:
    """`generate` run outside DVC, as on a GPU node; its answers and run spec, by path."""
    cmd = [sys.executable, "-m", "parakh.stages.generate", f"dataset={dataset}", "model=echo"]
    _run([*cmd, "embedder=hashing", "translator=none"], root, env)
    folder = f"data/processed/{dataset}/generate"
    return {
        f"{folder}/{n}": (root / folder / n).read_bytes()
        for n in ("echo.jsonl", "echo.runspec.json")
    }


def test_outputs_made_by_hand_survive_a_failed_run_once_dvc_committed(project: Project) -> None:
    root, env = project
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["models"] = ["extractive", "echo"]
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    echo_conf = root / "conf/model/echo.yaml"
    broken = echo_conf.read_text() + "max_tokn: 5\n"  # a typo the config schema refuses

    # The issue: answers made by hand, then an experiment whose generate stage fails. DVC
    # deletes them before running the stage, and no cache holds them.
    hand = _generate_by_hand(root, env, "demo")
    echo_conf.write_text(broken)
    out = _fails(["dvc", "exp", "run", "-n", "with-echo"], root, env)
    assert "max_tokn" in out.stdout + out.stderr and _ran(out) == {"generate@demo-echo"}
    assert not any((root / p).exists() for p in hand)
    _fails(["dvc", "checkout", "generate@demo-echo"], root, env)
    assert not any((root / p).exists() for p in hand)
    # The answers were not lost to the response cache, which no stage declares as an output:
    # with the config fixed, the stage rebuilds them without calling the model.
    _run(["git", "checkout", "-q", "--", "conf"], root, env)
    out = _run(["dvc", "repro", "generate@demo-echo"], root, env)
    assert f"{QUESTIONS} answers, 0 errors, {QUESTIONS} cached" in out.stdout
    path = "data/processed/demo/generate/echo.jsonl"
    assert (root / path).read_bytes() == hand[path]

    # The fix: `dvc commit -f <stage>` stores hand-made outputs in the cache and dvc.lock before
    # the run; after a failure `dvc checkout` brings every one back, byte for byte. Here the
    # hand-made answers come from a changed model config, so no earlier run cached them.
    echo_conf.write_text(echo_conf.read_text().replace("'{question}'", "'Answer: {question}'"))
    fixed = echo_conf.read_text()
    assert "Answer: {question}" in fixed
    made_by_dvc = (root / path).read_bytes()
    hand = {**_generate_by_hand(root, env, "demo"), **_generate_by_hand(root, env, "demo2")}
    assert hand[path] != made_by_dvc
    stages = ["generate@demo-echo", "generate@demo2-echo"]
    _run(["dvc", "commit", "-f", *stages], root, env)
    committed = _outputs(root)
    echo_conf.write_text(fixed + "max_tokn: 5\n")
    out = _fails(["dvc", "exp", "run", "-n", "with-echo"], root, env)
    assert "max_tokn" in out.stdout + out.stderr and _ran(out) == {"generate@demo-echo"}
    assert not (root / path).exists()
    echo_conf.write_text(fixed)
    _run(["dvc", "checkout", *stages], root, env)  # (echo's judge stages never ran: no outputs)
    assert {p: (root / p).read_bytes() for p in hand} == hand
    assert _outputs(root) == committed
    _restore(root, env)
