"""The human grades aggregate measures judges against, from its two sources.

- Curated grades of answers (curate/human_judgments.jsonl, `HumanJudgment` rows): a grade of an
  answer TEXT, not of a model. It pairs with every judge row whose generation answered the same
  question with exactly that text (LiveQA-Med's answer sources replayed as models give the
  judged text verbatim), on every metric the judge scored; one grade pairs with several models'
  rows when they gave the same text, and a graded answer no model gave pairs with nothing.
- A grades file (`aggregate.agreement.human_grades`, `HumanGrade` rows naming question, model
  and metric), checked line by line against the run: an unknown question id or metric, a grade
  outside its declared scale or its mapping, or grades on another scale than the judge's with
  no declared mapping are each an `InputError` naming the file, the line and the field.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from parakh.config.loading import unknown_name_message
from parakh.errors import InputError
from parakh.report.agreement import off_judge_scale
from parakh.report.items import system_name
from parakh.report.row_files import Answer
from parakh.schema import HumanGrade, HumanJudgment, Judgment
from parakh.stats.agreement import ScaleMapping

CURATED_GRADES = "human_judgments.jsonl"
CURATED_SOURCE = "answers"  # MetricAgreement.source of grades paired by answer text


@dataclass(frozen=True)
class PairedAnswerGrades:
    """Curated grades as `HumanGrade` rows, one per (grade, judge row of the graded text)."""

    grades: list[HumanGrade]
    graded: int  # curated grades read
    unmatched: int  # of them, grades of a text no model gave


def answer_grades(
    judgments: Iterable[HumanJudgment],
    generations: Mapping[str, Sequence[Answer]],
    rows: Mapping[str, list[Judgment]],
) -> PairedAnswerGrades:
    """Pair curated grades with judge rows by (question id, identical answer text).

    `generations` and `rows` are keyed alike (the generations file stem: model or
    `<model>@<variant>`); a row pairs through its own file's generation of the question.
    """
    by_answer: dict[tuple[str, str], list[HumanJudgment]] = defaultdict(list)
    graded = 0
    for human in judgments:
        by_answer[(human.question_id, human.answer)].append(human)
        graded += 1
    grades: list[HumanGrade] = []
    matched: set[str] = set()
    for model in sorted(rows):
        answers = {
            g.question_id: g.response
            for g in generations.get(model, [])
            if g.status == "ok" and g.response is not None
        }
        for row in rows[model]:
            text = answers.get(row.question_id)
            if text is None:
                continue
            for human in by_answer.get((row.question_id, text), []):
                matched.add(human.id)
                grades.append(
                    HumanGrade(
                        question_id=row.question_id,
                        model=system_name(row.model, row.translator),
                        metric=row.metric,
                        score=human.grade,
                        scale_min=human.scale_min,
                        scale_max=human.scale_max,
                        rater=str(human.meta["rater"]) if "rater" in human.meta else None,
                    )
                )
    return PairedAnswerGrades(grades, graded, graded - len(matched))


def check_grades_file(
    path: Path,
    grades: list[HumanGrade],
    lines: list[int],
    rows: list[Judgment],
    question_ids: set[str],
    mappings: Mapping[str, ScaleMapping],
) -> None:
    """Refuse a grades file the run cannot compare, naming its file, line and field."""
    known = question_ids | {r.question_id for r in rows}
    scale_max: dict[str, float] = {}
    for r in rows:
        scale_max.setdefault(r.metric, r.scale_max)
    for grade, line in zip(grades, lines, strict=True):
        if grade.question_id not in known:
            raise InputError(
                path,
                f"unknown question id '{grade.question_id}': no question of this run has it",
                line=line,
                field="question_id",
            )
        if grade.metric not in scale_max:
            message = unknown_name_message("metric", grade.metric, sorted(scale_max))
            raise InputError(
                path, f"{message} (the metrics this judge scored)", line=line, field="metric"
            )
        low, high = grade.scale_min, grade.scale_max
        if (low is not None and grade.score < low) or (high is not None and grade.score > high):
            declared = (
                f"{'-inf' if low is None else f'{low:g}'}..{'inf' if high is None else f'{high:g}'}"
            )
            raise InputError(
                path,
                f"grade {grade.score:g} is outside its declared scale {declared}",
                line=line,
                field="score",
            )
        _check_mapping(path, grade, line, scale_max[grade.metric], mappings.get(grade.metric))


def _check_mapping(
    path: Path, grade: HumanGrade, line: int, judge_max: float, mapping: ScaleMapping | None
) -> None:
    """Refuse a grade the judge's scale cannot take: without a mapping it must be on the
    judge's scale; a mapping of human grades must accept it."""
    if mapping is None:
        if off_judge_scale(grade, judge_max) is not None:
            raise InputError(
                path,
                f"'{grade.metric}' has no declared mapping and this grade is not on the "
                f"judge's 0..{judge_max:g} scale: declare one in "
                f"aggregate.agreement.mappings.{grade.metric}",
                line=line,
                field="metric",
            )
    elif mapping.applies_to == "human":
        try:
            mapping.apply(grade.score)
        except ValueError as e:
            raise InputError(
                path,
                f"aggregate.agreement.mappings.{grade.metric}: {e}",
                line=line,
                field="score",
            ) from e
