"""Hydra launcher sweeps: the joblib launcher (2 worker processes) and submitit_local give the
leaderboard that a sequential sweep gives, byte for byte. The launcher configs in
conf/hydra/launcher/ extend the plugins' schemas. Stages run as users run them, in a temp
project of 6 demo questions and three cheap models (extractive, two scripted)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hydra import compose, initialize_config_dir
from omegaconf import DictConfig

from tests.conftest import REPO

MODELS = ("extractive", "echo", "dunno")
SCRIPTED = {"echo": "{question}", "dunno": "I do not know the answer to your question."}
QUESTIONS = 6
# Written by aggregate from the judge rows alone; the ones a launcher must not change.
LEADERBOARD_FILES = (
    "leaderboard.md",
    "leaderboard.csv",
    "leaderboard.json",
    "metrics.json",
    "plots/model_language.json",
    "plots/model_category.json",
)


def _hydra_config(launcher: str) -> DictConfig:
    with initialize_config_dir(config_dir=str(REPO / "conf"), version_base="1.3"):
        cfg = compose("config", [f"hydra/launcher={launcher}"], return_hydra_config=True)
    return cfg.hydra.launcher


def test_launcher_configs_extend_the_plugin_schemas() -> None:
    local = _hydra_config("local")
    assert local._target_.endswith("JoblibLauncher") and local.n_jobs == 2
    assert local.prefer == "processes"
    submitit_local = _hydra_config("local_submitit")
    assert submitit_local._target_.endswith("submitit_launcher.LocalLauncher")
    assert submitit_local.submitit_folder == ".parakh/multirun/.submitit/%j"
    slurm = _hydra_config("slurm")
    assert slurm._target_.endswith("submitit_launcher.SlurmLauncher")
    for field in ("partition", "gpus_per_node", "timeout_min", "cpus_per_task", "mem_gb", "setup"):
        assert field in slurm
    # The plugins' own names still work, with the plugins' defaults.
    assert _hydra_config("joblib").n_jobs == -1


def test_an_unknown_key_in_a_launcher_config_fails_at_start(tmp_path: Path) -> None:
    """A copy of slurm.yaml with a misspelt field is refused by the plugin's schema."""
    from hydra.errors import ConfigCompositionException

    conf = tmp_path / "conf"
    shutil.copytree(REPO / "conf", conf)
    slurm = (conf / "hydra/launcher/slurm.yaml").read_text()
    (conf / "hydra/launcher/slurm_mine.yaml").write_text(slurm + "partion: gpu\n")
    with (
        initialize_config_dir(config_dir=str(conf), version_base="1.3"),
        pytest.raises(ConfigCompositionException, match="partion"),
    ):
        compose("config", ["hydra/launcher=slurm_mine"], return_hydra_config=True)


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout + out.stderr


def _env(root: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PARAKH_ROOT", "HYDRA_FULL_ERROR"}}
    env.pop("MLFLOW_TRACKING_URI", None)
    if root is not None:
        env["PARAKH_ROOT"] = str(root)
    return env


def _stage(name: str) -> list[str]:
    return [sys.executable, "-m", f"parakh.stages.{name}"]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project curated, translated and indexed once; each sweep runs in a copy of it."""
    root = tmp_path_factory.mktemp("launchers") / "prepared"
    shutil.copytree(REPO / "conf", root / "conf", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "data/raw/demo", root / "data/raw/demo")
    dataset = root / "conf/dataset/demo.yaml"
    cfg = yaml.safe_load(dataset.read_text())
    cfg["limit"] = QUESTIONS
    dataset.write_text(yaml.safe_dump(cfg))
    for name, response in SCRIPTED.items():
        model = {"name": name, "backend": "scripted", "default_response": response}
        (root / f"conf/model/{name}.yaml").write_text(yaml.safe_dump(model))
    env = _env(root)
    _run([*_stage("curate"), "dataset=demo"], root, env)
    _run([*_stage("index"), "dataset=demo", "embedder=hashing"], root, env)
    return root


def _sweep(prepared: Path, root: Path, launcher: list[str], cwd: Path, env: dict[str, str]) -> str:
    """generate and judge as Hydra multirun sweeps over MODELS, then aggregate (no MLflow)."""
    shutil.copytree(prepared, root)
    common = [f"model={','.join(MODELS)}", "embedder=hashing", "progress=false"]
    out = _run([*_stage("generate"), "-m", *launcher, *common], cwd, env)
    out += _run([*_stage("judge"), "-m", *launcher, *common, "judge=reference"], cwd, env)
    aggregate = [f"models=[{','.join(MODELS)}]", "judge=reference", "tracking.enabled=false"]
    out += _run([*_stage("aggregate"), *aggregate, "embedder=hashing"], cwd, env)
    return out


def _same_files(a: Path, b: Path, names: list[str]) -> None:
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), f"{name} differs"


@pytest.mark.slow
def test_parallel_launchers_give_the_sequential_leaderboard(prepared: Path, tmp_path: Path) -> None:
    sequential = tmp_path / "sequential"
    _sweep(prepared, sequential, [], sequential, _env(sequential))

    # joblib: two loky worker processes; no PARAKH_ROOT, so workers find the project by cwd.
    joblib = tmp_path / "joblib"
    out = _sweep(
        prepared, joblib, ["hydra/launcher=local", "hydra.launcher.verbose=1"], joblib, _env(None)
    )
    assert "LokyBackend with 2 concurrent workers" in out

    # submitit_local: one process per job, started from elsewhere; PARAKH_ROOT finds the project.
    submitit = tmp_path / "submitit"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _sweep(prepared, submitit, ["hydra/launcher=local_submitit"], elsewhere, _env(submitit))
    logs = "".join(
        p.read_text() for p in (elsewhere / ".parakh/multirun/.submitit").glob("*/*_log.out")
    )
    for model in MODELS:
        assert f"generate ({model}): {QUESTIONS} answers, 0 errors" in logs
        assert f"judge (reference) {model}: " in logs

    processed = "data/processed/demo"
    per_model = [f"{processed}/generate/{m}.jsonl" for m in MODELS]
    per_model += [f"{processed}/judge/reference/{m}.jsonl" for m in MODELS]
    reports = [f"reports/demo/reference/{name}" for name in LEADERBOARD_FILES]
    for parallel in (joblib, submitit):
        _same_files(sequential, parallel, per_model + reports)
    board = (sequential / "reports/demo/reference/leaderboard.md").read_text()
    assert all(f"| {m} |" in board for m in MODELS)
