"""CataractBot (Sankara Eye Hospital): six KB documents and expert-verified patient Q&A.

    kb/*.txt               hospital documents (raw KB)
    kb_update_qa.jsonl     id, unit, source_file, entry_index, question, answer: the bot's
                           "KB update" entries, questions as patients typed them

The questions carry no language: curate detects it (most are English; a few are romanized
Hindi or Kannada, one is in Kannada script). The expert answers are the reference answers. The
entries are left out of the KB unless `updates_as_kb` is set, since each one holds the answer
to its own question.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from parakh.datasets.healthbot import load_raw_documents
from parakh.datasets.records import Record, jsonl_lines
from parakh.datasets.registry import AdapterOptions, register
from parakh.datasets.rows import RowError, RowSink
from parakh.schema import KBDocument, Question


class CataractBotOptions(AdapterOptions):
    kb_dir: str = "kb"
    qa_file: str = "kb_update_qa.jsonl"
    units: list[str] | None = Field(
        default=None, description="keep only these units (Generic, BLR)"
    )
    updates_as_kb: bool = Field(
        default=False, description="also add every Q&A entry to the KB as an undated update"
    )


def question_from_entry(record: Record) -> Question:
    fields = {
        "id": record.text("id"),
        "text": record.text("question"),
        "language": "und",
        "reference_answers": [record.text("answer")],
        "meta": {"unit": record.text("unit"), "entry_index": record.integer("entry_index")},
    }
    return record.build(Question, fields)


@register("cataractbot", CataractBotOptions)
def load_cataractbot(root: Path, options: CataractBotOptions, sink: RowSink) -> None:
    kb_dir = root / options.kb_dir
    if not kb_dir.is_dir():
        raise RowError(kb_dir, "KB folder not found", reason="missing_file")
    load_raw_documents(kb_dir, sink)
    for line in jsonl_lines(root / options.qa_file):
        with sink.guard(line.text):
            record = line.parse()
            question = question_from_entry(record)
            if options.units is not None and question.meta["unit"] not in options.units:
                continue
            sink.add_question(question, record.origin)
            if options.updates_as_kb:
                sink.add_document(
                    KBDocument(
                        id=f"update:{question.id}",
                        text=f"{question.text}\n{question.reference_answers[0]}",
                        source=options.qa_file,
                        kind="update",
                        title=question.text,
                    )
                )
