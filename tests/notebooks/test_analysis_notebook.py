"""notebooks/analysis.ipynb runs top to bottom on a project's results, through the package API."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import REPO
from tests.report.synthetic_project import make_project

from parakh.config import compose
from parakh.stages import aggregate

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytestmark = pytest.mark.slow


def _text(notebook) -> str:
    parts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.extend(str(v) for v in output.get("data", {}).values())
    return "\n".join(parts)


def test_analysis_notebook_reads_results_through_parakh_results() -> None:
    notebook = nbformat.read(REPO / "notebooks" / "analysis.ipynb", as_version=4)
    source = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    assert "from parakh import results" in source
    for own_reading in ("json.load", "open(", "read_text", "read_csv", "read_json", "ReportFiles"):
        assert own_reading not in source, own_reading


def test_analysis_notebook_executes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_project(tmp_path / "project")
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    aggregate.main_task(compose(["tracking.enabled=false"]))
    notebook = nbformat.read(REPO / "notebooks" / "analysis.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(root)}}
    )
    client.execute()
    text = _text(notebook)
    assert "3 models, 24 questions, judge smoke, primary metric weighted" in text
    assert "recomputed figures identical to leaderboard.json: True" in text
    assert "largest disagreements on " in text
    assert "alpha" in text and "rank" in text
