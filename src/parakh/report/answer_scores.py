"""The judge rows under each answer of the answers page, read from columns a question at a time.

At N = 100,000 with five models the page shows two million judge rows: as `Judgment` objects
they would take most of aggregate's memory, so the columns stay arrays and a question's rows
become small `ScoreRow`s when its article is written (grouped by leaderboard entry, in order
of first row).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from parakh.report.columns import JudgeColumns
from parakh.report.items import row_systems
from parakh.report.row_files import STATUSES

TEXTS = ("justification", "reason")  # the judge-row texts an answer card shows


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """What an answer card shows of one judge row."""

    metric: str
    language: str
    status: str
    score: float | None
    scale_max: float
    justification: str | None
    reason: str | None


class AnswerScores:
    """Judge rows by question and leaderboard entry; `texts` holds the `TEXTS` columns of the
    same rows in the same order as `columns`."""

    def __init__(self, columns: JudgeColumns, texts: pa.Table) -> None:
        self.columns = columns
        self.system, self.system_names, _ = row_systems(columns)
        self.order = np.argsort(columns.question, kind="stable")
        self.bounds = np.searchsorted(
            columns.question[self.order], np.arange(len(columns.question_ids) + 1)
        )
        self.code_of = {qid: i for i, qid in enumerate(columns.question_ids)}
        self.texts = {name: texts.column(name).combine_chunks() for name in TEXTS}
        self.has_text = {
            name: np.asarray(pc.is_valid(self.texts[name]), dtype=bool) for name in TEXTS
        }
        code = self.system
        first = np.unique(code, return_index=True)[1] if code.size else np.zeros(0, dtype=int)
        self.model_of = {
            self.system_names[c]: columns.models[columns.model[i]]
            for c, i in zip(code[first].tolist(), first.tolist(), strict=True)
        }

    @property
    def question_ids(self) -> list[str]:
        """The questions with rows, sorted."""
        present = np.flatnonzero(np.diff(self.bounds) > 0)
        return [self.columns.question_ids[q] for q in present.tolist()]

    @property
    def metrics(self) -> list[str]:
        return sorted({self.columns.metrics[m] for m in np.unique(self.columns.metric).tolist()})

    @property
    def languages(self) -> set[str]:
        return {self.columns.languages[c] for c in np.unique(self.columns.language).tolist()}

    def of_question(self, qid: str) -> dict[str, list[ScoreRow]]:
        """The question's rows by leaderboard entry (entries in order of first row)."""
        q = self.code_of.get(qid)
        if q is None:
            return {}
        rows = self.order[self.bounds[q] : self.bounds[q + 1]]
        c = self.columns
        found: dict[str, list[ScoreRow]] = {}
        texts = {name: self._texts(name, rows) for name in TEXTS}
        values = zip(
            self.system[rows].tolist(),
            c.metric[rows].tolist(),
            c.language[rows].tolist(),
            c.status[rows].tolist(),
            c.score[rows].tolist(),
            c.has_score[rows].tolist(),
            c.scale_max[rows].tolist(),
            texts["justification"],
            texts["reason"],
            strict=True,
        )
        for system, metric, language, status, score, has_score, scale_max, why, reason in values:
            names = (c.metrics[metric], c.languages[language], STATUSES[status])
            row = ScoreRow(*names, score if has_score else None, scale_max, why, reason)
            found.setdefault(self.system_names[system], []).append(row)
        return found

    def _texts(self, name: str, rows: np.ndarray) -> list[str | None]:
        """One text column at `rows`; only rows that have the text are read from arrow."""
        present = self.has_text[name][rows]
        values: list[str | None] = [None] * rows.size
        if present.any():
            taken = self.texts[name].take(pa.array(rows[present])).to_pylist()
            for k, text in zip(np.flatnonzero(present).tolist(), taken, strict=True):
                values[k] = text
        return values
