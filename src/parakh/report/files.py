"""The files `aggregate` writes under reports/<dataset>/<judge>/ (as dvc.yaml names them)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parakh.errors import ConfigError
from parakh.stage_outputs import PathUnder, report_folder


@dataclass(frozen=True)
class ReportFiles:
    root: Path
    leaderboard_md = PathUnder("leaderboard.md")
    leaderboard_csv = PathUnder("leaderboard.csv")
    leaderboard_json = PathUnder("leaderboard.json")
    runspec = PathUnder("leaderboard.runspec.json")
    metrics_json = PathUnder("metrics.json")
    gates_json = PathUnder("gates.json")  # every release gate's checks (report.gates); [] if none
    report_html = PathUnder("report.html")
    answers_html = PathUnder("answers.html")  # the side-by-side answers, or the index of its pages
    # the pages of an answers page too large for one (`report.answers_page.write_answers`):
    # `<language>-<k>.html`; empty when `answers.html` holds every answer
    answers_pages = PathUnder("answers")
    # every agreement figure as a table (MLflow table JSON), written only with human grades and
    # logged with the report; not a DVC output (a dataset without grades has none)
    agreement_json = PathUnder("agreement.json")
    plots = PathUnder("plots")
    heatmap_png = PathUnder("plots", "heatmap.png")
    categories_png = PathUnder("plots", "categories.png")
    cost_png = PathUnder("plots", "cost.png")
    model_language_json = PathUnder("plots", "model_language.json")
    model_category_json = PathUnder("plots", "model_category.json")

    def answer_pages(self) -> list[Path]:
        """The pages there now, by language, then page number."""
        pages = self.answers_pages.glob("*-*.html") if self.answers_pages.is_dir() else []
        return sorted(pages, key=lambda p: (p.stem.rsplit("-", 1)[0], int(p.stem.rsplit("-")[-1])))

    def leaderboards(self) -> list[Path]:
        """The leaderboard files every figure of which is also an MLflow metric."""
        return [self.leaderboard_md, self.leaderboard_csv, self.leaderboard_json, self.metrics_json]


def read_leaderboard(reports: Path, dataset: str, judge: str, hint: str) -> dict[str, Any]:
    """reports/<dataset>/<judge>/leaderboard.json; missing, a ConfigError ending in `hint`
    (what to run to make it)."""
    path = ReportFiles(report_folder(reports, dataset, judge)).leaderboard_json
    if not path.is_file():
        raise ConfigError(
            f"no leaderboard for dataset '{dataset}', judge '{judge}' ({path}): {hint}"
        )
    board: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return board
