"""Human judgment files: (question, answer, grade) rows, for judge-vs-human agreement.

One row a judged (question, answer) pair; field names are options (the defaults read
TREC-2017 LiveQA-Med x MedQuAD: `Question_ID`, `NLM-Summary`, `Answer_ID`, `Answer`, `score`
1-4, `judgment` "4-Excellent"). Each question becomes one `Question` (its rows must agree on
the text); each row a `HumanJudgment`. A pair graded twice stays two rows (ids `...#2`), since
two ratings of one item are data, not duplicates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import Field

from parakh.datasets.records import Record, jsonl_lines
from parakh.datasets.registry import AdapterOptions
from parakh.datasets.rows import RowSink
from parakh.schema import HumanJudgment, Question

_LEADING_NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)?)")


class JudgmentOptions(AdapterOptions):
    file: str = "judgments.jsonl"
    question_id_field: str = "Question_ID"
    question_field: str = "NLM-Summary"
    answer_id_field: str = "Answer_ID"
    answer_field: str = "Answer"
    grade_field: str = "score"
    label_field: str | None = Field(
        default="judgment", description="text label; a leading number must equal the grade"
    )
    scale: tuple[float, float] = (1, 4)
    reference_answers_field: str = Field(
        default="reference_answers",
        description="a row's list of reference answers to its question, if it has the field",
    )
    question_meta_fields: list[str] = Field(
        default_factory=lambda: ["liveqa_qid", "SUBJECT", "MESSAGE", "NIST-PARAPHRASE"]
    )
    judgment_meta_fields: list[str] = Field(default_factory=lambda: ["answer_source"])


def _grade(record: Record, options: JudgmentOptions) -> float:
    value = record.raw(options.grade_field)
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise record.error(options.grade_field, f"expected a number, got {value!r}")
    try:
        grade = float(value)
    except ValueError:
        raise record.error(options.grade_field, f"expected a number, got {value!r}") from None
    low, high = options.scale
    if not low <= grade <= high:
        raise record.error(
            options.grade_field, f"grade {value!r} is outside the scale {low:g}..{high:g}"
        )
    if options.label_field and record.values.get(options.label_field) is not None:
        label = record.text(options.label_field)
        match = _LEADING_NUMBER.match(label)
        if match and float(match.group(1)) != grade:
            raise record.error(
                options.grade_field,
                f"grade {value!r} disagrees with {options.label_field} {label!r}",
            )
    return grade


@dataclass
class JudgmentReader:
    """Builds questions and judgments from judged-pair records, whatever file they come from:
    each question once (its rows must agree on the text), each pair graded twice as `#2`."""

    options: JudgmentOptions
    sink: RowSink
    questions: dict[str, Question] = field(default_factory=dict)
    pair_counts: dict[tuple[str, str], int] = field(default_factory=dict)

    def add(self, record: Record) -> None:
        options = self.options
        qid = record.text(options.question_id_field)
        meta: dict[str, Any] = {
            name: record.values.get(name) for name in options.question_meta_fields
        }
        fields: dict[str, Any] = {
            "id": qid, "text": record.text(options.question_field), "language": "und", "meta": meta
        }  # fmt: skip
        references = record.values.get(options.reference_answers_field)
        if references is not None:
            fields["reference_answers"] = references
        question = record.build(Question, fields)
        known = self.questions.get(qid)
        if known is not None and (known.text, known.reference_answers) != (
            question.text,
            question.reference_answers,
        ):
            raise record.error(
                options.question_field,
                f"question {qid!r} has another text (or other reference answers) on an "
                "earlier line",
                "duplicate_id_conflict",
            )
        answer_id = record.text(options.answer_id_field)
        n = self.pair_counts.get((qid, answer_id), 0) + 1
        judgment = record.build(
            HumanJudgment,
            {
                "id": f"{qid}:{answer_id}" + (f"#{n}" if n > 1 else ""),
                "question_id": qid,
                "answer_id": answer_id,
                "answer": record.text(options.answer_field, strip=False),
                "grade": _grade(record, options),
                "scale_min": options.scale[0],
                "scale_max": options.scale[1],
                "label": record.optional_text(options.label_field) if options.label_field else None,
                "meta": {name: record.values.get(name) for name in options.judgment_meta_fields},
            },
        )
        # Checked first: a judgment that fails its checks adds nothing, not even its question.
        judgment = self.sink.check(judgment, record.origin)
        if known is None:
            self.sink.add_question(question, record.origin)
            self.questions[qid] = question
        self.pair_counts[(qid, answer_id)] = n
        self.sink.add_judgment(judgment, record.origin)


def load_judgments(root: Path, options: JudgmentOptions, sink: RowSink) -> None:
    path = root / options.file if root.is_dir() else root
    reader = JudgmentReader(options, sink)
    for line in jsonl_lines(path):
        with sink.guard(line.text):
            reader.add(line.parse())
