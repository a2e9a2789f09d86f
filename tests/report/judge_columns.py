"""Judge rows held as objects, as the statistics read them (aggregate reads them from files)."""

from __future__ import annotations

from collections.abc import Sequence

from parakh.report.columns import JudgeColumns
from parakh.report.row_files import STATS_COLUMNS, JudgeFile
from parakh.schema import Judgment


def judge_columns(rows: Sequence[Judgment]) -> JudgeColumns:
    return JudgeColumns.of_table(JudgeFile.of_rows(rows).columns(STATS_COLUMNS))
