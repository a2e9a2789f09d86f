"""A sweep logs its report as the folder reads on disk: plots under report/plots and a split
answers page's pages under report/answers, so answers.html's links to them hold in MLflow."""

from __future__ import annotations

from pathlib import Path

from parakh.config import compose
from parakh.report.files import ReportFiles
from parakh.report.inputs import AggregateInputs
from parakh.stage_outputs import Layout
from parakh.tracking.sweep import _parent_files


def test_answers_pages_and_plots_keep_their_folders(tmp_path: Path) -> None:
    files = ReportFiles(tmp_path / "reports")
    for path in (files.answers_html, files.answers_pages / "hi-1.html", files.heatmap_png):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x", encoding="utf-8")
    layout = Layout(tmp_path / "data", files.root)
    inputs = AggregateInputs(judge="smoke", models=[], judgments={})
    config = tmp_path / "config.json"
    _, _, artifacts = _parent_files(compose([]), inputs, layout, files, config)
    folders = {path.name: folder for path, folder in artifacts}
    assert folders["hi-1.html"] == "report/answers"
    assert folders["answers.html"] == "report"
    assert folders["heatmap.png"] == "report/plots"


def test_a_grades_folder_is_stored_file_by_file(tmp_path: Path) -> None:
    """Its graders' files and the sheets' answer keys go under inputs/human_grades/, so that
    `parakh reproduce` rebuilds the agreement from them; the sheets themselves stay out."""
    folder = tmp_path / "grading" / "demo"
    folder.mkdir(parents=True)
    for name in ("asha.jsonl", "ravi.jsonl", "s1.key.json", "s1-asha.html"):
        (folder / name).write_text("x", encoding="utf-8")
    files = ReportFiles(tmp_path / "reports")
    inputs = AggregateInputs(judge="smoke", models=[], judgments={}, paths={"human_grades": folder})
    config = tmp_path / "config.json"
    hashed, stored, _ = _parent_files(
        compose([]), inputs, Layout(tmp_path, files.root), files, config
    )
    assert stored.files == {
        f"human_grades/{name}": folder / name
        for name in ("asha.jsonl", "ravi.jsonl", "s1.key.json")
    }
    assert sorted(hashed) == sorted(stored.files.values())
    single = folder / "asha.jsonl"
    inputs = AggregateInputs(judge="smoke", models=[], judgments={}, paths={"human_grades": single})
    _, stored, _ = _parent_files(compose([]), inputs, Layout(tmp_path, files.root), files, config)
    assert stored.files == {"human_grades.jsonl": single}
