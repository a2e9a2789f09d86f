"""The judge rows under each answer of the answers page, read from columns a question at a time.

At N = 100,000 with five models the page shows two million judge rows: as `Judgment` objects
they would take most of aggregate's memory, so the columns stay arrays and a question's rows
become small `ScoreRow`s when its article is written (grouped by leaderboard entry, in order
of first row).
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

import numpy as np
import pyarrow as pa

from parakh.metrics.specs import GROUNDED
from parakh.report.columns import JudgeColumns
from parakh.report.items import row_systems
from parakh.report.row_files import STATUSES

TEXTS = ("justification", "reason", "label")  # the judge-row texts an answer card shows
ScoreRow = tuple[str, str, str, str | None]
"""What an answer card shows of one judge row: its status, metric, figure (score/scale of an ok
score, else the status) and why (an ok score's justification, None without one; any other row's
reason, "" without one)."""
FIGURE = "%g/%g"  # an ok score's figure: score/scale


class QuestionRows(NamedTuple):
    """A question's judge rows as its answer cards show them, by leaderboard entry."""

    shown: dict[str, list[ScoreRow]]  # every row but the skipped ones
    skipped: dict[str, dict[str, list[str]]]  # the metrics skipped, by reason
    scaled: dict[str, dict[str, float]]  # each metric's ok scores on 0..1, by entry
    marks: dict[str, str]  # the groundedness verdicts, a letter a sentence (`label`), by entry


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
        order = pa.array(self.order)  # the texts in question order: a question's are a slice
        self.texts = {name: texts.column(name).take(order).combine_chunks() for name in TEXTS}
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

    def language_of(self, qid: str) -> str:
        """The language of the question's first row ("und" without rows)."""
        q = self.code_of.get(qid)
        if q is None or self.bounds[q] == self.bounds[q + 1]:
            return "und"
        return self.columns.languages[self.columns.language[self.order[self.bounds[q]]]]

    def of_question(self, qid: str) -> QuestionRows:
        """The question's rows as its answer cards show them (`QuestionRows`, in row order)."""
        shown, skipped, scaled, marks = found = QuestionRows({}, {}, defaultdict(dict), {})
        q = self.code_of.get(qid)
        if q is None:
            return found
        lo, hi = self.bounds[q : q + 2].tolist()
        rows = self.order[lo:hi]
        c, names, status = self.columns, self.system_names, self.columns.status[rows]
        values = zip(
            self.system[rows].tolist(),
            c.metric[rows].tolist(),
            status.tolist(),
            ((status == STATUSES.index("ok")) & c.has_score[rows]).tolist(),
            c.score[rows].tolist(),
            c.scale_max[rows].tolist(),
            self.texts["justification"][lo:hi].to_pylist(),
            self.texts["reason"][lo:hi].to_pylist(),
            self.texts["label"][lo:hi].to_pylist(),
            strict=True,
        )
        for system, metric, code, scored, score, scale_max, why, reason, label in values:
            entry, name = names[system], c.metrics[metric]
            if scored:
                row: ScoreRow = ("ok", name, FIGURE % (score, scale_max), why or None)
                scaled[name][entry] = round(score / scale_max, 6)
                if name == GROUNDED and label:
                    marks[entry] = label
            elif STATUSES[code] == "skipped":
                skipped.setdefault(entry, {}).setdefault(reason or "", []).append(name)
                continue
            else:
                row = (STATUSES[code], name, STATUSES[code], reason or "")
            shown.setdefault(entry, []).append(row)
        return found
