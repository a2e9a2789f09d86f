"""NoMIRACL's released-code table for a leaderboard, from the judge summaries beside the rows.

Each model's judge summary (`<model>.summary.json`, `parakh.metrics.nomiracl`) holds,
per language and subset, the cells the authors' `examples/hallucination_evaluation.py` writes:
Accuracy, Hallucination (non-relevant subset) or Error (relevant), and Invalid, in percent to 4
places. The leaderboard shows them beside the paper-style rates so a reader can set them against
the authors' own table without opening the summaries.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parakh.errors import InputError
from parakh.stage_outputs import summary_path

ALL = "all"  # the summary's pooled entry: no figure of the released script
SUBSETS = (("non_relevant", "Hallucination"), ("relevant", "Error"))

# model -> language -> subset -> {"outputs", "Accuracy", "Hallucination" or "Error", "Invalid"}
Cells = dict[str, dict[str, dict[str, dict[str, Any]]]]


def _cells_of(path: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """language -> subset -> cells of one summary; empty when it has no NoMIRACL part."""
    try:
        by_language = json.loads(path.read_text(encoding="utf-8")).get("nomiracl") or {}
        return {
            language: {s: c for s, c in summary["released_table"].items() if c is not None}
            for language, summary in sorted(by_language.items())
            if language != ALL
        }
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise InputError(path, f"not a NoMIRACL judge summary (released_table): {e}") from e


@dataclass(frozen=True)
class ReleasedTable:
    cells: Cells

    @classmethod
    def read(cls, judgments: Mapping[str, Path]) -> ReleasedTable | None:
        """The table of the models whose judge files are `judgments` (model -> rows file);
        None when no summary beside them has a NoMIRACL part."""
        cells: Cells = {}
        for model, path in judgments.items():
            summary = summary_path(path)
            if summary.exists() and (found := _cells_of(summary)):
                cells[model] = found
        return cls(cells) if cells else None

    def markdown(self) -> list[str]:
        """One table per subset: a row per model, a column per language, each cell
        `Accuracy / Hallucination or Error / Invalid` as the released script writes them."""
        parts = [
            "## The released code's table",
            "",
            "NoMIRACL's own evaluation code on the same stored outputs, as its "
            "`examples/hallucination_evaluation.py` writes it: percent of the outputs, 4 places, "
            "0.0 where its ConfusionMetric sets none (its parsing rules; every stored output, "
            "invalid ones included).",
            "",
        ]
        for subset, error_name in SUBSETS:
            languages = sorted(
                {lang for by_lang in self.cells.values() for lang, c in by_lang.items()
                 if subset in c}
            )  # fmt: skip
            if not languages:
                continue
            parts += [f"{subset} (Accuracy / {error_name} / Invalid, %):", ""]
            parts += ["| model | " + " | ".join(languages) + " |"]
            parts += ["|---|" + "---|" * len(languages)]
            for model, by_lang in self.cells.items():
                row = [_cell(by_lang.get(lang, {}).get(subset), error_name) for lang in languages]
                parts += [f"| {model} | " + " | ".join(row) + " |"]
            parts += [""]
        return parts


def _cell(cells: Mapping[str, Any] | None, error_name: str) -> str:
    if cells is None:
        return "–"
    return f"{cells['Accuracy']} / {cells[error_name]} / {cells['Invalid']}"
