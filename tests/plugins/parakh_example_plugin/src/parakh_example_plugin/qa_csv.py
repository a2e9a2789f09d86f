"""`adapter: qa_csv`: a CSV file with the columns id, language, question and answer; every
answer is also a KB passage. A bad row fails naming file, line and field."""

from __future__ import annotations

from pathlib import Path

from parakh.datasets.records import csv_rows
from parakh.datasets.registry import AdapterOptions
from parakh.datasets.rows import RowError, RowSink
from parakh.schema import KBDocument, Question


class QACsvOptions(AdapterOptions):  # `options:` in the dataset config; unknown keys fail
    file: str = "qa.csv"


def load_qa_csv(root: Path, options: QACsvOptions, sink: RowSink) -> None:
    path = root / options.file
    if not path.is_file():
        raise RowError(path, "QA file not found", reason="missing_file")
    for row in csv_rows(path, ["id", "language", "question", "answer"]):
        with sink.guard(row.text):
            record = row.parse()
            question = record.build(
                Question,
                {
                    "id": record.text("id"),
                    "text": record.text("question"),
                    "language": record.language("language"),
                    "reference_answers": [record.text("answer")],
                    "label_source": {"language": "dataset"},
                },
            )
            sink.add_question(question, record.origin)
            answer = KBDocument(
                id=f"answer:{question.id}", text=record.text("answer"), source=path.name, kind="raw"
            )
            sink.add_document(answer, record.origin)
