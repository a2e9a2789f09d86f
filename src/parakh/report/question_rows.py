"""The curated questions as aggregate shows them: id, text, language, categories, reference
answers and domain, nothing else.

Each row of the questions file is validated whole as a `Question` (a bad row is an error naming
file, line and field, as ever) and kept as a small `QuestionView`: at N = 100,000 the validated
objects held 325 MB, a fifth of aggregate's peak, for fields no page, statistic or MLflow run of
aggregate reads (scripts, label sources, contexts, translations, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from parakh.io import iter_jsonl
from parakh.schema import Question


@dataclass(frozen=True, slots=True)
class QuestionView:
    """A curated question, as the reports and MLflow runs show it."""

    id: str
    text: str
    language: str
    categories: list[str]
    reference_answers: list[str]
    domain: str | None = None

    @classmethod
    def of(cls, question: Question) -> QuestionView:
        q = question
        return cls(q.id, q.text, q.language, q.categories, q.reference_answers, q.domain)


def read_questions(path: Path) -> list[QuestionView]:
    """Every row of a questions file, in file order, each validated as a `Question`."""
    return [QuestionView.of(q) for q in iter_jsonl(path, Question)]
