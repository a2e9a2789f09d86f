"""The judge rows the statistics read, as numpy columns of codes, in reading order.

Question ids are coded in sorted order, so a mask over questions read with `np.flatnonzero`
lists them sorted; every other text column (model, translator,
metric, language, status, category) is coded into its own small vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from parakh.report.row_files import STATUSES


@dataclass(frozen=True)
class JudgeColumns:
    question: np.ndarray  # (rows,) code into question_ids
    question_ids: list[str]  # sorted
    model: np.ndarray
    models: list[str]
    translator: np.ndarray  # -1: none
    translators: list[str]
    metric: np.ndarray
    metrics: list[str]
    language: np.ndarray
    languages: list[str]
    status: np.ndarray  # code into STATUSES
    score: np.ndarray  # NaN where there is none
    has_score: np.ndarray  # bool: the row carries a score (a NaN score too)
    scale_max: np.ndarray
    category_row: np.ndarray  # (pairs,) the row of each (row, category) pair
    category: np.ndarray  # (pairs,) code into categories
    categories: list[str]
    sample: np.ndarray  # (rows,) sample index (`generation.samples`), 0 for a single sample

    @property
    def samples(self) -> int:
        """Samples per question: 1 + the largest sample index."""
        return 1 + int(self.sample.max()) if self.sample.size else 1

    def __len__(self) -> int:
        return int(self.question.size)

    @classmethod
    def of_table(cls, table: pa.Table) -> JudgeColumns:
        """From the `parakh.report.row_files.STATS_COLUMNS` of some rows."""
        ids = table.column("question_id")
        question_ids = sorted(pc.unique(ids).to_pylist())
        question = pc.index_in(ids, value_set=pa.array(question_ids, pa.string()))
        coded: dict[str, Any] = {}  # each text column's codes, and its vocabulary (`<name>s`)
        for name in ("model", "translator", "metric", "language"):
            coded[name], coded[f"{name}s"] = codes_of(table.column(name))
        status_codes, statuses = codes_of(table.column("status"))
        order = np.array([STATUSES.index(s) for s in statuses] or [0], dtype=np.int8)
        score = table.column("score")
        lists = table.column("categories")
        category, categories = codes_of(pc.list_flatten(lists))
        return cls(
            question=as_numpy(question),
            question_ids=question_ids,
            **coded,
            status=order[status_codes] if status_codes.size else status_codes,
            score=as_numpy(pc.fill_null(score, np.nan)).astype(float),
            has_score=as_numpy(pc.is_valid(score)).astype(bool),
            scale_max=as_numpy(table.column("scale_max")).astype(float),
            category_row=as_numpy(pc.list_parent_indices(lists)),
            category=category,
            categories=categories,
            sample=as_numpy(table.column("sample")).astype(np.int64),
        )


def as_numpy(values: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """An arrow column as a numpy array (an empty one of no chunks too)."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks else pa.array([], values.type)
    return np.asarray(values.to_numpy(zero_copy_only=False))


def codes_of(values: pa.ChunkedArray | pa.Array) -> tuple[np.ndarray, list[str]]:
    """Each value's code into the vocabulary of distinct values (in order of appearance);
    -1 for a null."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks else pa.array([], values.type)
    encoded = pc.dictionary_encode(values)
    codes = as_numpy(pc.fill_null(encoded.indices, -1)).astype(np.int32)
    return codes, encoded.dictionary.to_pylist()
