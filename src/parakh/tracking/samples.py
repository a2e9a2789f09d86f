"""Per-sample results as MLflow sees them: one judged answer per (model, question) with its
judge rows, and the tables logged with `log_table` (a language run's judge rows side by side
with question, reference and answer, for the UI's evaluation view; a model run's every
leaderboard figure, slices included, which its metrics leave out).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parakh.io import read_jsonl
from parakh.report.inputs import AggregateInputs
from parakh.report.items import system_name
from parakh.report.row_files import Answer, QuestionView, read_answers
from parakh.schema import Judgment, Retrieval
from parakh.tracking.metric_names import ALL, CELL_FIGURES

Table = dict[str, list[Any]]  # column -> values, as `log_table` takes it
SAMPLES_TABLE = "judgments.json"
CELLS_TABLE = "leaderboard/cells.json"
RANKS_TABLE = "leaderboard/ranks.json"
SAMPLE_COLUMNS = (
    "question_id",
    "language",
    "categories",
    "question",
    "reference",
    "answer",
    "metric",
    "status",
    "score",
    "scale_max",
    "justification",
    "reason",
)
_ANSWER_COLUMNS = {"question_id", "language", "question", "reference", "answer"}  # the rest: rows


@dataclass(frozen=True)
class JudgedAnswer:
    """One model's answer to one question with every judge row of it."""

    system: str
    question_id: str
    language: str
    question: str
    reference: str | None
    answer: str | None
    context: tuple[str, ...]
    judgments: tuple[Judgment, ...]


def judged_answers(
    inputs: AggregateInputs,
    system: str,
    model: str,
    *,
    generations: Path | None = None,
    retrieval: Path | None = None,
) -> list[JudgedAnswer]:
    """The judged answers of one leaderboard system, in judge-row order.

    Answers come from the loaded inputs, else from `generations` when that file exists;
    retrieved chunks from `retrieval` when it exists (empty otherwise).
    """
    rows = [
        r for r in inputs.judgments.get(model, []) if system_name(r.model, r.translator) == system
    ]
    loaded = inputs.generations.get(model)
    if loaded is None and generations is not None and generations.is_file():
        loaded = read_answers(generations)
    answers = {g.question_id: g for g in loaded or []}
    contexts: dict[str, tuple[str, ...]] = {}
    if retrieval is not None and retrieval.is_file():
        contexts = {
            r.question_id: tuple(c.text for c in [*r.raw_chunks, *r.kb_update_chunks])
            for r in read_jsonl(retrieval, Retrieval)
        }
    questions: dict[str, QuestionView] = {q.id: q for q in inputs.questions}
    by_question: dict[str, list[Judgment]] = defaultdict(list)
    for r in rows:
        by_question[r.question_id].append(r)
    out = []
    for question_id, judged in by_question.items():
        question = questions.get(question_id)
        generation = answers.get(question_id)
        out.append(
            JudgedAnswer(
                system=system,
                question_id=question_id,
                language=judged[0].language,
                question=question.text if question else "",
                reference=question.reference_answers[0]
                if question and question.reference_answers
                else None,
                answer=None if generation is None else _answer_text(generation),
                context=contexts.get(question_id, ()),
                judgments=tuple(judged),
            )
        )
    return out


def _answer_text(generation: Answer) -> str | None:
    if generation.status == "ok":
        return generation.response
    return f"(no answer: {generation.error})" if generation.error else None


def samples_table(answers: list[JudgedAnswer], language: str) -> Table:
    """One row per judge row of `language`'s answers (`all`: every answer)."""
    judged = [(a, j) for a in answers if language in (ALL, a.language) for j in a.judgments]
    table = {
        c: [getattr(a if c in _ANSWER_COLUMNS else j, c) for a, j in judged] for c in SAMPLE_COLUMNS
    }
    table["categories"] = [", ".join(j.categories) for _, j in judged]
    return table


def leaderboard_tables(document: dict[str, Any], system: str) -> dict[str, Table]:
    """A system's leaderboard cells (metric, dimension: all, language, category or domain,
    value, each figure) and rank intervals, as tables."""
    tables = {
        CELLS_TABLE: ("cells", ("metric", "dimension", "value", *CELL_FIGURES)),
        RANKS_TABLE: ("ranks", ("metric", "rank", "rank_low", "rank_high")),
    }
    return {
        name: {c: [row[c] for row in document[key] if row["model"] == system] for c in columns}
        for name, (key, columns) in tables.items()
    }
