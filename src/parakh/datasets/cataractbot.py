"""CataractBot (Sankara Eye Hospital): hospital KB documents and expert-verified patient Q&A.

Upstream, as `parakh import-data cataractbot` brings byoeb's `data/cataract_bot/documents/` at
the pinned commit, holds one folder per hospital unit:

    Generic/    six GENERIC_*.txt documents and GENERIC_KB_Update.txt (238 entries)
    BLR/        Bengaluru's contact, insurance and pre-operative documents, BLR_KB_Update.txt (29)
    HYD/, JAI/  Hyderabad's and Jaipur's contact, insurance and pre-operative documents
    TEST/       BLR's files again, under unprefixed names

In a unit's folder the file whose name ends in `KB_Update.txt` holds the bot's KB-update entries
(`## <question as the patient typed it>`, then the expert's answer); every other `.txt` file is
a KB document. `options.hospitals` names the folders read, in order. Their documents make one KB
and each entry of their KB updates is a question, id `<unit>-NNN` (the 0-based entry index),
the expert answer its reference.

As deployed, a hospital's KB is Generic's documents plus its own. Retrieval has no per-question
KB scope, so here the KB is the union over the folders read: the default, Generic and BLR, is
Bengaluru's KB, and every question upstream is Generic's or BLR's. Adding HYD or JAI adds their
documents (they have no KB update) beside Bengaluru's, other cities' contacts included.

Parsed layout (the shared test mirror, made from upstream's Generic and BLR files):

    kb/*.txt               the Generic documents
    kb_update_qa.jsonl     id, unit, source_file, entry_index, question, answer; same ids

It is read when `kb_update_qa.jsonl` exists; `hospitals` then selects entries by unit.

The questions carry no language: curate detects it (most are English; a few are romanized
Hindi or Kannada, one is in Kannada script). The entries are left out of the KB unless
`updates_as_kb` is set, since each one holds the answer to its own question.
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
from parakh.datasets.registry import AdapterOptions
from parakh.datasets.rows import RowError, RowSink
from parakh.schema import Question

PARSED_QA_FILE = "kb_update_qa.jsonl"
PARSED_KB_DIR = "kb"
KB_UPDATE_SUFFIX = "KB_Update.txt"


class CataractBotOptions(AdapterOptions):
    hospitals: list[str] = Field(
        default_factory=lambda: ["Generic", "BLR"],
        min_length=1,
        description="upstream unit folders read (Generic, BLR, HYD, JAI, TEST): their documents "
        "make the KB, their KB-update entries the questions",
    )
    updates_as_kb: bool = Field(
        default=False, description="also add every Q&A entry to the KB as an undated update"
    )


def _add_entry(record: Record, options: CataractBotOptions, sink: RowSink) -> None:
    fields = {
        "id": record.text("id"),
        "text": record.text("question"),
        "language": "und",
        "reference_answers": [record.text("answer")],
        "meta": {"unit": record.text("unit"), "entry_index": record.integer("entry_index")},
    }
    question = record.build(Question, fields)
    sink.add_question(question, record.origin)
    if options.updates_as_kb:
        answer = question.reference_answers[0]
        doc_id = f"update:{question.id}"
        sink.add_document(update_document(doc_id, question.text, answer, record.path.name))


def load_parsed(root: Path, options: CataractBotOptions, sink: RowSink) -> None:
    kb_dir = root / PARSED_KB_DIR
    if not kb_dir.is_dir():
        raise RowError(kb_dir, "KB folder not found", reason="missing_file")
    load_raw_documents(kb_dir, sink)
    for line in jsonl_lines(root / PARSED_QA_FILE):
        with sink.guard(line.text):
            record = line.parse()
            if record.text("unit") in options.hospitals:
                _add_entry(record, options, sink)


def load_hospital(folder: Path, options: CataractBotOptions, sink: RowSink) -> None:
    """One unit's folder: its documents, then its KB-update entries as questions."""
    files = sorted(folder.glob("*.txt"))
    updates = [p for p in files if p.name.endswith(KB_UPDATE_SUFFIX)]
    if len(updates) > 1:
        names = ", ".join(p.name for p in updates)
        raise RowError(folder, f"more than one KB-update file: {names}", field="hospitals")
    for path in files:
        if path not in updates:
            load_raw_document(path, sink)
    for path in updates:
        entries: list[tuple[int, str, str]] = []
        with sink.guard(path.name):
            entries = parse_kb_update_entries(read_document(path), path)
        for index, (lineno, text, answer) in enumerate(entries):
            values = {"id": f"{folder.name}-{index:03d}", "unit": folder.name,
                      "entry_index": index, "question": text, "answer": answer}  # fmt: skip
            with sink.guard(f"## {text}\n{answer}"):
                _add_entry(Record(path, lineno, values), options, sink)


def load_cataractbot(root: Path, options: CataractBotOptions, sink: RowSink) -> None:
    if (root / PARSED_QA_FILE).is_file():
        load_parsed(root, options, sink)
        return
    folders = [root / hospital for hospital in options.hospitals]
    for folder in folders:
        if not folder.is_dir():
            present = sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
            raise RowError(
                folder,
                f"hospital folder not found (folders here: {', '.join(present) or 'none'}); "
                "expected byoeb's data/cataract_bot/documents or a folder holding "
                f"{PARSED_QA_FILE}",
                field="hospitals",
                reason="missing_file",
            )
    for folder in folders:
        load_hospital(folder, options, sink)
