"""Simple QA JSONL (MedQuAD style): one question-answer pair a line.

The field names are options (MedQuAD: `id`, `question`, `answer`). Every answer is also a KB
passage (`answers_as_kb`), so the gold passage of a question is its own answer, with the id
`answer:<question id>` kept in `meta.gold_document`. Other fields listed in `meta_fields` are
kept as they are.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from parakh.datasets.records import Record, jsonl_lines
from parakh.datasets.registry import AdapterOptions
from parakh.datasets.rows import RowError, RowSink
from parakh.schema import KBDocument, Question


class QAJsonlOptions(AdapterOptions):
    file: str | None = Field(
        default=None, description="file under the dataset folder; None: the path itself"
    )
    id_field: str = "id"
    question_field: str = "question"
    answer_field: str = "answer"
    language_field: str | None = Field(
        default=None, description="None: `dataset.language`, else detected"
    )
    domain_field: str | None = None
    title_field: str | None = None
    meta_fields: list[str] = Field(default_factory=list)
    answers_as_kb: bool = True


def load_qa_jsonl(root: Path, options: QAJsonlOptions, sink: RowSink) -> None:
    path = root / options.file if options.file else root
    if not path.is_file():
        raise RowError(path, "QA file not found", reason="missing_file")
    for line in jsonl_lines(path):
        with sink.guard(line.text):
            add_pair(line.parse(), options, sink, path.name)


def add_pair(record: Record, options: QAJsonlOptions, sink: RowSink, source: str) -> None:
    """One QA pair as a question (and its answer as a KB passage, `answers_as_kb`)."""
    qid = record.text(options.id_field)
    answer = record.text(options.answer_field)
    fields: dict[str, Any] = {
        "id": qid,
        "text": record.text(options.question_field),
        "language": "und",
        "reference_answers": [answer],
        "meta": {name: record.values.get(name) for name in options.meta_fields},
    }
    if options.language_field:
        fields["language"] = record.language(options.language_field)
        fields["label_source"] = {"language": "dataset"}
    if options.domain_field:
        fields["domain"] = record.optional_text(options.domain_field)
    if options.answers_as_kb:
        fields["meta"]["gold_document"] = f"answer:{qid}"
    question = record.build(Question, fields)
    sink.add_question(question, record.origin)
    if options.answers_as_kb:
        title = record.optional_text(options.title_field) if options.title_field else None
        sink.add_document(
            KBDocument(id=f"answer:{qid}", text=answer, source=source, kind="raw", title=title),
            record.origin,
        )
