"""NoMIRACL as documented, on real upstream rows: `parakh import-data nomiracl` (a `dvc import`
of `results/baselines` from a local git repository holding the fixture at upstream's path, the
config's `source` pointed at it), then `parakh protocol nomiracl --run`. Every stored output is
evaluated (null-prompt rows too) and the leaderboard's released-code table equals, cell for
cell, the count by the released rules done in tests/judging/test_nomiracl_released_table.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from tests.datasets.test_nomiracl_upstream import FIXTURE
from tests.judging.test_nomiracl_released_table import expected_table
from tests.support.dvc_project import copy_project, git_init, stage_env

pytestmark = pytest.mark.slow


def _run(cmd: list[str], root: Path, env: dict[str, str]) -> str:
    out = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout


def test_protocol_on_imported_upstream_rows_gives_the_released_table(tmp_path: Path) -> None:
    root = tmp_path / "project"
    copy_project(REPO, root)
    env = stage_env(root)
    git_init(root, env)
    upstream = tmp_path / "nomiracl"
    (upstream / "results").mkdir(parents=True)
    shutil.copytree(FIXTURE, upstream / "results" / "baselines")
    git_init(upstream, env)
    rev = _run(["git", "rev-parse", "HEAD"], upstream, env).strip()
    conf = root / "conf/dataset/nomiracl.yaml"
    document = yaml.safe_load(conf.read_text(encoding="utf-8"))
    document["source"]["repo"], document["source"]["rev"] = str(upstream), rev
    conf.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    _run(["parakh", "import-data", "nomiracl"], root, env)
    _run(["git", "add", "-A"], root, env)
    _run(["git", "commit", "-q", "-m", "import nomiracl"], root, env)
    _run(["parakh", "protocol", "nomiracl", "--run"], root, env)

    reports = root / "reports" / "nomiracl" / "nomiracl"
    board = json.loads((reports / "leaderboard.json").read_text(encoding="utf-8"))
    assert board["curation"]["rows_in"] == board["curation"]["rows_out"] == 26
    found = {
        (model, language, subset): {k: v for k, v in cells.items() if k != "outputs"}
        for model, by_language in board["released_code_table"].items()
        for language, by_subset in by_language.items()
        for subset, cells in by_subset.items()
    }
    expected = {
        (f"nomiracl-{model.lower()}", language, subset): cells
        for (model, language, subset), cells in expected_table().items()
    }
    assert found == expected
    assert "## The released code's table" in (reports / "leaderboard.md").read_text("utf-8")
