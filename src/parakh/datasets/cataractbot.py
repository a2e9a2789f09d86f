"""CataractBot (Sankara Eye Hospital): six KB documents and expert-verified patient Q&A.

Two layouts are read. Parsed (a folder made from upstream):

    kb/*.txt               hospital documents (raw KB)
    kb_update_qa.jsonl     id, unit, source_file, entry_index, question, answer: the bot's
                           "KB update" entries, questions as patients typed them

Upstream, as `parakh import-data cataractbot` brings byoeb's `data/cataract_bot/documents/`:

    GENERIC_*.txt          hospital documents (raw KB), except the KB update files
    GENERIC_KB_Update.txt  `## <question>` then the expert answer, entry after entry;
    BLR_KB_Update.txt      ids `Generic-NNN` / `BLR-NNN` (unit + 0-based entry index), as in
                           the parsed layout

The layout is the parsed one when `qa_file` exists, else the upstream one.

The questions carry no language: curate detects it (most are English; a few are romanized
Hindi or Kannada, one is in Kannada script). The expert answers are the reference answers. The
entries are left out of the KB unless `updates_as_kb` is set, since each one holds the answer
to its own question.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from parakh.datasets.healthbot import (
    load_raw_document,
    load_raw_documents,
    parse_kb_update_entries,
    read_document,
    update_document,
)
from parakh.datasets.records import Record, jsonl_lines
from parakh.datasets.registry import AdapterOptions, register
from parakh.datasets.rows import RowError, RowSink
from parakh.schema import Question


class CataractBotOptions(AdapterOptions):
    kb_dir: str = "kb"
    qa_file: str = "kb_update_qa.jsonl"
    units: list[str] | None = Field(
        default=None, description="keep only these units (Generic, BLR)"
    )
    updates_as_kb: bool = Field(
        default=False, description="also add every Q&A entry to the KB as an undated update"
    )
    upstream_documents: str = Field(
        default="GENERIC_*.txt", description="upstream layout: the KB documents (a glob)"
    )
    upstream_updates: dict[str, str] = Field(
        default_factory=lambda: {"GENERIC_KB_Update.txt": "Generic", "BLR_KB_Update.txt": "BLR"},
        description="upstream layout: KB update file -> unit",
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


def _add_entry(question: Question, options: CataractBotOptions, sink: RowSink) -> None:
    if options.updates_as_kb:
        answer = question.reference_answers[0]
        doc_id = f"update:{question.id}"
        sink.add_document(update_document(doc_id, question.text, answer, options.qa_file))


def load_parsed(root: Path, options: CataractBotOptions, sink: RowSink) -> None:
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
            _add_entry(question, options, sink)


def load_upstream(root: Path, options: CataractBotOptions, sink: RowSink) -> None:
    """byoeb's documents folder as it is: KB documents and `## question` update files."""
    documents = sorted(
        p for p in root.glob(options.upstream_documents) if p.name not in options.upstream_updates
    )
    if not documents:
        raise RowError(
            root,
            f"neither {options.qa_file} (parsed layout) nor {options.upstream_documents} "
            "documents (upstream layout) found",
            reason="missing_file",
        )
    for path in documents:
        load_raw_document(path, sink)
    for name, unit in options.upstream_updates.items():
        if options.units is not None and unit not in options.units:
            continue
        path = root / name
        entries: list[tuple[int, str, str]] = []
        with sink.guard(name):
            entries = parse_kb_update_entries(read_document(path), path)
        for index, (lineno, text, answer) in enumerate(entries):
            values = {"id": f"{unit}-{index:03d}", "unit": unit, "entry_index": index,
                      "question": text, "answer": answer}  # fmt: skip
            record = Record(path, lineno, values)
            with sink.guard(f"## {text}\n{answer}"):
                question = question_from_entry(record)
                sink.add_question(question, record.origin)
                _add_entry(question, options, sink)


@register("cataractbot", CataractBotOptions)
def load_cataractbot(root: Path, options: CataractBotOptions, sink: RowSink) -> None:
    if (root / options.qa_file).is_file():
        load_parsed(root, options, sink)
    else:
        load_upstream(root, options, sink)
