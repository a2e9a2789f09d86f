"""The files `aggregate` writes under reports/<dataset>/<judge>/ (as dvc.yaml names them)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parakh.errors import ConfigError


@dataclass(frozen=True)
class ReportFiles:
    root: Path

    @property
    def leaderboard_md(self) -> Path:
        return self.root / "leaderboard.md"

    @property
    def leaderboard_csv(self) -> Path:
        return self.root / "leaderboard.csv"

    @property
    def leaderboard_json(self) -> Path:
        return self.root / "leaderboard.json"

    @property
    def runspec(self) -> Path:
        return self.root / "leaderboard.runspec.json"

    @property
    def metrics_json(self) -> Path:
        return self.root / "metrics.json"

    @property
    def report_html(self) -> Path:
        return self.root / "report.html"

    @property
    def answers_html(self) -> Path:
        """The side-by-side answers: the whole page, or the index of its pages."""
        return self.root / "answers.html"

    @property
    def answers_pages(self) -> Path:
        """The pages of an answers page too large for one (`report.answers_page.write_answers`):
        `<language>-<k>.html`; empty when `answers.html` holds every answer."""
        return self.root / "answers"

    def answer_pages(self) -> list[Path]:
        """The pages there now, by language, then page number."""
        pages = self.answers_pages.glob("*-*.html") if self.answers_pages.is_dir() else []
        return sorted(pages, key=lambda p: (p.stem.rsplit("-", 1)[0], int(p.stem.rsplit("-")[-1])))

    @property
    def plots(self) -> Path:
        return self.root / "plots"

    @property
    def heatmap_png(self) -> Path:
        return self.plots / "heatmap.png"

    @property
    def categories_png(self) -> Path:
        return self.plots / "categories.png"

    @property
    def model_language_json(self) -> Path:
        return self.plots / "model_language.json"

    @property
    def model_category_json(self) -> Path:
        return self.plots / "model_category.json"

    def leaderboards(self) -> list[Path]:
        """The leaderboard files every figure of which is also an MLflow metric."""
        return [self.leaderboard_md, self.leaderboard_csv, self.leaderboard_json, self.metrics_json]


def read_leaderboard(reports: Path, dataset: str, judge: str, hint: str) -> dict[str, Any]:
    """reports/<dataset>/<judge>/leaderboard.json; missing, a ConfigError ending in `hint`
    (what to run to make it)."""
    path = ReportFiles(reports / dataset / judge).leaderboard_json
    if not path.is_file():
        raise ConfigError(
            f"no leaderboard for dataset '{dataset}', judge '{judge}' ({path}): {hint}"
        )
    board: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return board
