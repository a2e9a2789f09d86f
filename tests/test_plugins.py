"""Plugins by entry point: a package installed beside Parakh adds a model backend, a metric, a
judge and a dataset adapter, and `dvc repro` runs them with nothing in Parakh edited.

The package is tests/plugins/parakh_example_plugin (the one docs/extending.md shows). It is
pip-installed, offline, into a fresh virtual environment that sees Parakh's installed
environment through a `.pth` file, so the venv the suite runs in never holds the plugin.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml

from parakh import plugins
from parakh.config.model import ModelConfig
from parakh.datasets import parse_options
from parakh.errors import ConfigError
from parakh.metrics.registry import get_reference_metric
from tests.conftest import REPO
from tests.support.dvc_project import copy_project, git_init, stage_env, update_yaml

PLUGIN = REPO / "tests/plugins/parakh_example_plugin"
QUESTIONS = [
    ("q1", "en", "How long should I wear the eye shield?", "Wear the eye shield at night"),
    ("q2", "en", "Can I wash my face after surgery?", "Do not splash water in the eye"),
    ("q3", "hi", "क्या मैं टीवी देख सकता हूँ?", "हाँ, आप टीवी देख सकते हैं"),
]


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout + out.stderr


def _venv_with_plugin(tmp: Path) -> Path:
    """A new venv holding the plugin, over Parakh's environment; its bin folder."""
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp, dict(os.environ))
    python = venv / "bin" / "python"
    site = subprocess.check_output(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
    )
    parakh_env = sysconfig.get_paths()["purelib"]
    (Path(site.strip()) / "parakh_env.pth").write_text(
        f"import site; site.addsitedir({parakh_env!r})\n", encoding="utf-8"
    )
    source = tmp / "plugin-src"  # the build writes into the source tree: not into the repo
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    install = ["pip", "--python", str(python), "install", "-q", "--no-index", "--no-deps"]
    _run(
        [sys.executable, "-m", *install, "--no-build-isolation", str(source)],
        tmp,
        dict(os.environ),
    )
    return venv / "bin"


def _project(root: Path) -> None:
    copy_project(REPO, root, folders=("conf", "src"))
    raw = root / "data/raw/clinic"
    raw.mkdir(parents=True)
    with (raw / "qa.csv").open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([("id", "language", "question", "answer"), *QUESTIONS])
    dataset = {
        "defaults": ["_base", "_self_"],
        "name": "clinic",
        "adapter": "qa_csv",  # the plugin's adapter
        "path": "data/raw/clinic",
        "prompt": "healthbot_demo",
        "categories": {"tagger": "none"},
    }
    (root / "conf/dataset/clinic.yaml").write_text(yaml.safe_dump(dataset), encoding="utf-8")
    echo = {"name": "echo", "backend": "echo", "max_words": 12}  # the plugin's backend
    (root / "conf/model/echo.yaml").write_text(yaml.safe_dump(echo), encoding="utf-8")
    judge = {
        "name": "plugin",
        "prompt": "judge_healthbot",
        # the plugin's metric and judge, a built-in metric
        "reference_metrics": ["contains_reference", "prompt_compliance", "token_f1"],
        "primary_metric": "contains_reference",
    }
    (root / "conf/judge/plugin.yaml").write_text(yaml.safe_dump(judge), encoding="utf-8")
    update_yaml(
        root / "params.yaml",
        datasets=["clinic"],
        models=["echo", "extractive"],
        judge="plugin",
        embedder="hashing",
        variants=[],
        translate_test=[],
    )


@pytest.mark.slow
def test_an_installed_plugin_runs_through_dvc_repro(tmp_path: Path) -> None:
    bin_dir = _venv_with_plugin(tmp_path)
    root = tmp_path / "project"
    _project(root)
    env = stage_env(root)  # `python` in the stages is the new venv's, `dvc` Parakh's own
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    git_init(root, env)
    _run(["dvc", "repro"], root, env)

    with (root / "reports/clinic/plugin/leaderboard.csv").open(encoding="utf-8") as f:
        overall = {
            (row["model"], row["metric"]): row for row in csv.DictReader(f) if row["value"] == "all"
        }
    assert set(overall) == {
        (model, metric)
        for model in ("echo", "extractive")  # the plugin's backend beside a built-in one
        for metric in (
            "contains_reference",
            "at_most_three_sentences",
            "repeats_question",
            "token_f1",
        )
    }
    echo = overall["echo", "contains_reference"]
    assert (echo["n"], echo["errors"], echo["direction"], echo["scale_max"]) == (
        "3", "0", "higher", "1.0"
    )  # fmt: skip
    # each echoed answer is the passage retrieved first, the question's own reference answer
    assert float(echo["mean"]) == 1.0
    # the plugin judge's two metrics: a short answer that does not echo the question
    assert float(overall["echo", "at_most_three_sentences"]["mean"]) == 1.0
    assert float(overall["echo", "repeats_question"]["mean"]) == 0.0
    assert overall["echo", "repeats_question"]["direction"] == "lower"
    board = (root / "reports/clinic/plugin/leaderboard.md").read_text(encoding="utf-8")
    assert "Primary metric: `contains_reference` (higher is better)" in board


def test_the_extending_page_shows_the_plugin_package_as_it_is() -> None:
    page = (REPO / "docs/extending.md").read_text(encoding="utf-8")
    shown = re.findall(r"<!-- (tests/plugins/\S+) -->\n```\w+\n(.*?)```\n", page, re.S)
    assert {path for path, _ in shown} == {
        str(p.relative_to(REPO)) for p in PLUGIN.rglob("*") if p.suffix in {".py", ".toml"}
    } - {str((PLUGIN / "src/parakh_example_plugin/__init__.py").relative_to(REPO))}
    for path, text in shown:
        assert text == (REPO / path).read_text(encoding="utf-8"), path


def test_an_unknown_plugin_name_says_which_package_to_install() -> None:
    with pytest.raises(ConfigError) as excinfo:
        plugins.load("backends", "echo")
    message = str(excinfo.value)
    assert message.startswith("Unknown model backend 'echo'. Available: extractive, llamacpp, ")
    assert "entry-point group parakh.backends: `pip install` the package" in message
    with pytest.raises(ConfigError, match=r"Unknown dataset adapter 'qa_csv'\..*pip install"):
        parse_options("qa_csv", {})
    for name in ("contains_reference", "prompt_compliance"):
        with pytest.raises(ConfigError, match=rf"Unknown metric '{name}'\..*pip install"):
            get_reference_metric(name)


def test_a_model_config_naming_no_installed_backend_is_refused() -> None:
    from pydantic import TypeAdapter, ValidationError

    with pytest.raises(ValidationError, match=r"Unknown model backend 'echo'.*pip install"):
        TypeAdapter(ModelConfig).validate_python({"name": "e", "backend": "echo"})
