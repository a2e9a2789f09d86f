"""DVC experiments over a cut-down demo: `dvc exp run -S` on params.yaml (which models run) and on
a conf file (how one runs), `--queue` + `--run-all`, and the refusals that keep params.yaml and
conf/ from silently overriding each other. Real DVC and git in a temp project; the tests run in
order and share it."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from parakh.config.dvc_run import (
    check_dvc_run,
    check_models_agree,
    check_params_file,
    params_read_by_pipeline,
    pin_project_root_to_stage_folder,
)
from parakh.errors import ConfigError, InputError
from tests.conftest import REPO
from tests.support.dvc_project import copy_project, git_init, stage_env, update_yaml

QUESTIONS = 6
METRICS = "reports/demo/reference/metrics.json"


def _run(
    cmd: list[str], cwd: Path, env: dict[str, str], ok: bool = True
) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    if ok:
        assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out


def _run_queue(
    root: Path, env: dict[str, str], names: tuple[str, ...], workers: int, timeout_s: float = 240
) -> str:
    """Process the queue with `dvc queue start -j`, polling `dvc queue status` until every named
    experiment has ended. Not `dvc exp run --run-all`: its foreground wait sometimes never
    returns after the experiments are done (treeverse/dvc#10398, #10428)."""
    _run(["dvc", "queue", "start", "-j", str(workers)], root, env)
    deadline = time.monotonic() + timeout_s
    status = ""
    try:
        while time.monotonic() < deadline:
            status = _run(["dvc", "queue", "status"], root, env).stdout
            rows = [line for line in status.splitlines() if any(n in line for n in names)]
            ended = [r for r in rows if "Success" in r or "Failed" in r]
            if len(ended) == len(names):
                return status
            time.sleep(2)
    finally:
        _run(["dvc", "queue", "stop", "--kill"], root, env, ok=False)
    raise AssertionError(f"queued experiments still running after {timeout_s} s:\n{status}")


def _ran(out: subprocess.CompletedProcess[str]) -> set[str]:
    lines = (out.stdout + out.stderr).splitlines()
    return {line.split("'")[1] for line in lines if line.startswith("Running stage")}


def test_the_repo_params_are_all_read_and_dvc_hydra_composition_is_off() -> None:
    """Every params.yaml key is read by dvc.yaml, and DVC never rewrites params.yaml from conf/
    (its Hydra composition, `hydra.enabled`, would overwrite the model lists)."""
    check_params_file(REPO)
    assert "hydra" not in (REPO / ".dvc/config").read_text()
    text = (REPO / "dvc.yaml").read_text()
    read = params_read_by_pipeline(yaml.safe_load(text), text)
    assert {"datasets", "models", "judge", "judge_model", "variants", "translate_test"} <= read
    assert "item" not in read


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    root = tmp_path_factory.mktemp("dvc-exp") / "project"
    copy_project(REPO, root)
    update_yaml(root / "conf/dataset/demo.yaml", limit=QUESTIONS)
    echo = {"name": "echo", "backend": "scripted", "default_response": "{question}"}
    (root / "conf/model/echo.yaml").write_text(yaml.safe_dump(echo))
    update_yaml(
        root / "params.yaml", models=["extractive", "echo"], judge="reference", embedder="hashing"
    )
    # The workspace's own root: queued experiments must still write into their temp copies.
    env = stage_env(root)
    git_init(root, env)
    yield root, env
    _run(["dvc", "queue", "stop"], root, env, ok=False)  # no worker outlives the tests


def _exp_show(root: Path, env: dict[str, str]) -> dict[str, dict[str, Any]]:
    """`dvc exp show --json`, as {experiment name: its data (params, metrics, deps)}."""
    shown = json.loads(_run(["dvc", "exp", "show", "--json"], root, env).stdout)
    return {
        rev["name"]: rev["data"]
        for baseline in shown
        for exp in baseline.get("experiments") or []
        for rev in exp["revs"]
        if rev.get("name")
    }


def _params(data: dict[str, Any]) -> dict[str, Any]:
    return data["params"]["params.yaml"]["data"]


def _metrics(data: dict[str, Any]) -> dict[str, Any]:
    """The models' metrics (without their cost and latency)."""
    return {k: v for k, v in data["metrics"][METRICS]["data"].items() if k != "cost_and_latency"}


def _outputs(root: Path) -> dict[str, bytes]:
    """Every stage output in the workspace, by path."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for folder in ("data/processed", "reports")
        for p in sorted((root / folder).rglob("*"))
        if p.is_file()
    }


def _restore(root: Path, env: dict[str, str]) -> None:
    _run(["git", "checkout", "-q", "--", "params.yaml", "conf"], root, env)


@pytest.mark.slow
def test_set_param_on_params_yaml_chooses_the_models(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    out = _run(
        ["dvc", "exp", "run", "-n", "only-extractive", "-S", "models=[extractive]"], root, env
    )
    assert {"generate@demo-extractive", "aggregate@demo"} <= _ran(out)
    assert "generate@demo-echo" not in _ran(out)
    exp = _exp_show(root, env)["only-extractive"]
    assert _params(exp)["models"] == ["extractive"]
    assert set(_metrics(exp)) == {"extractive"}
    assert 0 < _metrics(exp)["extractive"]["token_f1"]["all"] <= 1


@pytest.mark.slow
def test_set_param_on_a_conf_file_reruns_only_the_stages_that_read_it(
    project: tuple[Path, dict[str, str]],
) -> None:
    root, env = project
    setting = "conf/model/extractive.yaml:max_sentences=1"
    out = _run(["dvc", "exp", "run", "-n", "one-sentence", "-S", setting], root, env)
    assert _ran(out) == {"generate@demo-extractive", "judge@demo-extractive", "aggregate@demo"}
    shown = _exp_show(root, env)
    before, after = shown["only-extractive"], shown["one-sentence"]
    assert _params(after) == _params(before)  # params.yaml unchanged ...
    model = "conf/model/extractive.yaml"  # ... the conf file is a whole-file param: its values
    assert after["params"][model]["data"]["max_sentences"] == 1
    assert before["params"][model]["data"]["max_sentences"] == 2
    assert _metrics(after) != _metrics(before)
    _restore(root, env)


@pytest.mark.slow
def test_a_model_setting_shows_its_value_in_exp_show_and_params_diff(
    project: tuple[Path, dict[str, str]],
) -> None:
    """#17: `dvc exp show` and `dvc params diff` show the values an experiment ran with, not a
    file hash. conf/model/smollm2.yaml is the judge model's file (params.yaml `judge_model`),
    a whole-file param of the judge stages."""
    root, env = project
    setting = "conf/model/smollm2.yaml:sampling.temperature=0.5"
    _run(["dvc", "exp", "run", "-n", "warm-judge", "-S", setting], root, env)
    shown = _exp_show(root, env)["warm-judge"]
    assert shown["params"]["conf/model/smollm2.yaml"]["data"]["sampling"]["temperature"] == 0.5
    diff = json.loads(_run(["dvc", "params", "diff", "--json"], root, env).stdout)
    change = diff["conf/model/smollm2.yaml"]["sampling.temperature"]
    assert (change["old"], change["new"]) == (0.0, 0.5)
    _restore(root, env)


@pytest.mark.slow
def test_settings_that_would_be_silently_ignored_are_refused(
    project: tuple[Path, dict[str, str]],
) -> None:
    root, env = project
    _run(["dvc", "repro"], root, env)  # the workspace up to date: only what follows would run
    assert "up to date" in _run(["dvc", "status"], root, env).stdout
    # A `how` value put into params.yaml: nothing reads it there; the aggregate stage, which
    # watches the whole file, runs and refuses it.
    out = _run(["dvc", "exp", "run", "-S", "+sampling.temperature=0.5"], root, env, ok=False)
    assert out.returncode != 0 and _ran(out) == {"aggregate@demo"}
    assert "no stage in dvc.yaml reads 'sampling'" in out.stdout + out.stderr
    _restore(root, env)
    # A key params.yaml lacks: DVC itself refuses it without `+`.
    out = _run(["dvc", "exp", "run", "-S", "seed=1"], root, env, ok=False)
    assert out.returncode != 0 and "+seed=1" in out.stdout + out.stderr
    # conf/config.yaml naming other models than the params.yaml DVC runs.
    config = root / "conf/config.yaml"
    config.write_text(config.read_text().replace("models: null", "models: [extractive, echo]"))
    out = _run(["dvc", "exp", "run", "-S", "models=[extractive]"], root, env, ok=False)
    assert out.returncode != 0
    assert "params.yaml decides which models run" in out.stdout + out.stderr
    _restore(root, env)


@pytest.mark.slow
def test_queued_experiments_run_in_their_own_copies(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    workspace = _outputs(root)
    queue = ["dvc", "exp", "run", "--queue"]
    _run([*queue, "-n", "q-echo", "-S", "models=[echo]"], root, env)
    _run([*queue, "-n", "q-three", "-S", "conf/model/extractive.yaml:max_sentences=3"], root, env)
    status = _run_queue(root, env, names=("q-echo", "q-three"), workers=2)
    assert "Failed" not in status, status
    shown = _exp_show(root, env)
    assert _params(shown["q-echo"])["models"] == ["echo"]
    assert set(_metrics(shown["q-echo"])) == {"echo"}
    assert set(_metrics(shown["q-three"])) == {"extractive", "echo"}
    assert _metrics(shown["q-three"])["extractive"] != _metrics(shown["one-sentence"])["extractive"]
    # They ran in .dvc/tmp/exps copies, though PARAKH_ROOT named the workspace.
    assert _outputs(root) == workspace


def test_params_read_are_interpolated_or_listed_never_loop_variables() -> None:
    text = """
stages:
  gen:
    matrix:
      dataset: ${datasets}
      model: ${models}
    cmd: python -m x model=${item.model} judge=${ judge }
    params: [seed, {params.yaml: [retriever.k]}, {other.yaml: [lr]}, {params.yaml: }]
  agg:
    foreach: ${datasets}
    do:
      cmd: echo ${item} ${key}
      params: [translator]
"""
    read = params_read_by_pipeline(yaml.safe_load(text), text)
    assert read == {"datasets", "models", "judge", "seed", "retriever", "translator"}


def _tiny_project(root: Path, params: dict[str, Any]) -> Path:
    (root / "conf/model").mkdir(parents=True)
    (root / "conf/config.yaml").write_text("models: null\n")
    (root / "conf/model/extractive.yaml").write_text("name: extractive\n")
    (root / "dvc.yaml").write_text("stages:\n  gen:\n    cmd: run ${models} ${datasets}\n")
    (root / "params.yaml").write_text(yaml.safe_dump(params))
    return root


def test_a_params_key_no_stage_reads_is_refused_with_where_it_belongs(tmp_path: Path) -> None:
    root = _tiny_project(tmp_path, {"models": ["extractive"], "temperature": 0.5})
    with pytest.raises(InputError, match="field 'temperature': no stage in dvc.yaml reads") as e:
        check_params_file(root)
    assert "conf/model/<name>.yaml:temperature=" in str(e.value)
    # `models` is read by aggregate itself, even where no dvc.yaml line names it.
    (root / "params.yaml").write_text("models: [extractive]\n")
    (root / "dvc.yaml").write_text("stages:\n  aggregate:\n    cmd: aggregate\n")
    assert check_params_file(root) == {"models": ["extractive"]}


def test_conf_models_must_match_the_params_models_under_dvc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tiny_project(tmp_path, {"models": ["extractive"]})
    check_models_agree(None, {"models": ["extractive"]})
    check_models_agree(["extractive"], {"models": ["extractive"]})
    with pytest.raises(ConfigError, match="params.yaml decides which models run"):
        check_models_agree(["extractive", "smollm2"], {"models": ["extractive"]})
    check_dvc_run(["smollm2"], root)  # run by hand, not by DVC: `models=[...]` is the user's
    monkeypatch.setenv("DVC_STAGE", "aggregate@demo")
    with pytest.raises(ConfigError):
        check_dvc_run(["smollm2"], root)


def test_under_dvc_the_stage_folder_is_the_project_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A queued experiment's copy in .dvc/tmp/exps/ is its own project, whatever PARAKH_ROOT
    says."""
    copy = _tiny_project(tmp_path / "copy", {"models": ["extractive"]})
    monkeypatch.chdir(copy)
    monkeypatch.setenv("PARAKH_ROOT", str(REPO))
    pin_project_root_to_stage_folder()
    assert os.environ["PARAKH_ROOT"] == str(REPO)  # not a DVC stage: left alone
    monkeypatch.setenv("DVC_STAGE", "generate@demo-extractive")
    pin_project_root_to_stage_folder()
    assert os.environ["PARAKH_ROOT"] == str(copy.resolve())
    assert "that is the project root here" in capsys.readouterr().err
