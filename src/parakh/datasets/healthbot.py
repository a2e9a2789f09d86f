"""Health-chatbot datasets: a KB folder of raw documents and dated KB updates, questions, chat logs.

Layout (the bundled demo uses it; every path is an option):
    kb/raw/*.md|*.txt          raw hospital documents; a first line `# Title` names the document
    kb/updates/YYYY-MM-DD.md   KB updates added on that date, CataractBot style:
                               `## <question as asked>` then the expert's answer
    questions.jsonl            id, text, language, response_language, categories, asked_at,
                               reference_answer, answerable, domain (or questions.csv: the
                               same columns, categories `;`-separated, answerable true/false)
    chat logs (CSV or JSONL)   one user message a row with a timestamp; see `ChatLogSource`
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import Field

from parakh.config.base import Strict
from parakh.datasets.records import CsvRow, Record, decode, file_rows, first_bad_byte
from parakh.datasets.registry import AdapterOptions
from parakh.datasets.rows import Origin, RowError, RowSink
from parakh.schema import KBDocument, Question

_DATE_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_QUESTION_FIELDS = {
    "id",
    "text",
    "language",
    "response_language",
    "categories",
    "asked_at",
    "reference_answer",
    "answerable",
    "domain",
}


class ChatLogSource(Strict):
    """A chat-log file (or glob) of user messages; each message becomes a question."""

    path: str = Field(description="file or glob under the dataset folder, .csv or .jsonl")
    text: str = "text"
    timestamp: str = "timestamp"
    id: str | None = Field(default="id", description="id column; None: '<file stem>-<line>'")
    language: str | None = Field(default=None, description="language column; None: detected")
    keep: list[str] = Field(default_factory=list, description="other columns kept in meta")


DEFAULT_QUESTIONS = "questions.jsonl"


class HealthbotOptions(AdapterOptions):
    questions: str | None = Field(
        default=DEFAULT_QUESTIONS,
        description="questions file, .jsonl or .csv (the default falls back to questions.csv)",
    )
    raw_dir: str = "kb/raw"
    updates_dir: str = "kb/updates"
    chat_logs: list[ChatLogSource] = Field(default_factory=list)


def read_document(path: Path) -> str:
    """A KB text file's content; an undecodable byte names the line and the field."""
    text = decode(path)
    if found := first_bad_byte(text):
        line = text[: found[0]].count("\n") + 1
        message = f"invalid UTF-8 (byte {found[1]})"
        raise RowError(path, message, line=line, field="text", reason="invalid_utf8")
    return text


def load_raw_documents(folder: Path, sink: RowSink) -> None:
    for path in sorted([*folder.glob("*.md"), *folder.glob("*.txt")]):
        load_raw_document(path, sink)


def load_raw_document(path: Path, sink: RowSink) -> None:
    """One KB document `raw:<stem>`; a leading `# ` line is its title."""
    with sink.guard(path.name):
        text = read_document(path).strip()
        if not text:
            raise RowError(path, "document is empty", field="text", reason="empty_text")
        first, _, rest = text.partition("\n")
        title = first.lstrip("# ").strip() if first.startswith("#") else path.stem
        body = rest.strip() if first.startswith("#") else text
        sink.add_document(
            KBDocument(id=f"raw:{path.stem}", text=body, source=path.name, kind="raw", title=title),
            Origin(path.name),
        )


def parse_kb_update_entries(text: str, path: Path) -> list[tuple[int, str, str]]:
    """Split `## question` / answer entries; returns (line, question, answer) triples."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("## ")]
    for i, line in enumerate(lines[: starts[0] if starts else None]):
        if line.strip():
            message = "text before the first '## ' question"
            raise RowError(path, message, line=i + 1, field="question")
    entries = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=False):
        q, a = lines[start][3:].strip(), "\n".join(lines[start + 1 : end]).strip()
        if not (q and a):
            field = "answer" if q else "question"
            message = f"question {q!r} has no answer" if q else "empty question after '## '"
            raise RowError(path, message, line=start + 1, field=field, reason="empty_text")
        entries.append((start + 1, q, a))
    return entries


def update_date(path: Path) -> date:
    if not _DATE_NAME.match(path.stem):
        message = "KB-update files must be named YYYY-MM-DD.md"
        raise RowError(path, message, field="added_at", reason="bad_date")
    try:
        return date.fromisoformat(path.stem)
    except ValueError as e:
        raise RowError(
            path, f"file name is not a valid date: {e}", field="added_at", reason="bad_date"
        ) from e


def update_document(
    doc_id: str, question: str, answer: str, source: str, added_at: date | None = None
) -> KBDocument:
    """A KB-update entry as a KB document: its question, then its answer; titled by the question."""
    return KBDocument(
        id=doc_id,
        text=f"{question}\n{answer}",
        source=source,
        kind="update",
        title=question,
        added_at=added_at,
    )


def load_kb_updates(folder: Path, sink: RowSink) -> None:
    for path in sorted(folder.glob("*.md")):
        with sink.guard(path.name):
            added = update_date(path)
            entries = parse_kb_update_entries(read_document(path), path)
            for i, (lineno, question, answer) in enumerate(entries):
                doc_id = f"update:{path.stem}:{i:03d}"
                sink.add_document(
                    update_document(doc_id, question, answer, path.name, added),
                    Origin(path.name, lineno),
                )


def question_from_record(record: Record) -> Question:
    obj = record.values
    unknown = sorted(set(obj) - _QUESTION_FIELDS)
    if unknown:
        raise record.error(unknown[0], f"unknown field (expected {sorted(_QUESTION_FIELDS)})")
    categories = obj.get("categories", [])
    if not isinstance(categories, list) or not all(isinstance(c, str) for c in categories):
        raise record.error("categories", f"expected a list of strings, got {categories!r}")
    reference = obj.get("reference_answer")
    response_language = obj.get("response_language")
    fields = {
        "id": record.text("id"),
        "text": record.text("text", strip=False),
        "language": record.language("language"),
        "response_language": (
            record.language("response_language") if response_language is not None else None
        ),
        "categories": categories,
        "category_sources": {c: "dataset" for c in categories},
        "label_source": {"language": "dataset"},
        "reference_answers": [reference] if reference else [],
        "asked_at": record.date("asked_at"),
        "answerable": obj.get("answerable", True),
        "domain": obj.get("domain"),
    }
    return record.build(Question, fields)


def load_questions(path: Path, sink: RowSink) -> None:
    """Questions from a JSONL file (one object a line) or a CSV file with a header row; both
    take the fields of `_QUESTION_FIELDS`, CSV cells as `csv_question_values` says."""
    for row in file_rows(path, ["id", "text", "language"]):
        with sink.guard(row.text):
            record = row.parse()
            if isinstance(row, CsvRow):
                record = dataclasses.replace(record, values=csv_question_values(record))
            sink.add_question(question_from_record(record), record.origin)


def csv_question_values(record: Record) -> dict[str, Any]:
    """A CSV row as the JSONL object it stands for: an empty cell is an absent field,
    `categories` a `;`-separated list, `answerable` true or false."""
    values: dict[str, Any] = {k: v for k, v in record.values.items() if v.strip() != ""}
    if "categories" in values:
        values["categories"] = [c.strip() for c in values["categories"].split(";") if c.strip()]
    if "answerable" in values:
        flag = values["answerable"].strip().lower()
        if flag not in ("true", "false"):
            raise record.error("answerable", f"expected true or false, got {flag!r}")
        values["answerable"] = flag == "true"
    return values


def _chat_message(record: Record, source: ChatLogSource, root: Path) -> Question:
    asked = record.date(source.timestamp)
    if asked is None:
        raise record.error(source.timestamp, "missing timestamp", "missing_field")
    qid = record.text(source.id) if source.id else f"{record.path.stem}-{record.line}"
    fields: dict[str, Any] = {
        "id": qid,
        "text": record.text(source.text, strip=False),
        "language": "und",
        "asked_at": asked,
        "meta": {
            "source": str(record.path.relative_to(root)),
            "timestamp": str(record.values[source.timestamp]).strip(),
            **{name: record.values.get(name) for name in source.keep},
        },
    }
    if source.language:
        fields["language"] = record.language(source.language)
        fields["label_source"] = {"language": "dataset"}
    return record.build(Question, fields)


def load_chat_logs(root: Path, source: ChatLogSource, sink: RowSink) -> None:
    paths = sorted(root.glob(source.path))
    if not paths:
        raise RowError(root / source.path, "no chat-log file matches", reason="missing_file")
    required = [c for c in (source.text, source.timestamp, source.id) if c]
    for path in paths:
        for row in list(file_rows(path, required)):
            with sink.guard(row.text):
                record = row.parse()
                for column in required:
                    record.raw(column)
                sink.add_question(_chat_message(record, source, root), record.origin)


def load_healthbot(root: Path, options: HealthbotOptions, sink: RowSink) -> None:
    if not root.is_dir():
        raise RowError(root, "dataset folder not found", reason="missing_file")
    raw_dir, updates_dir = root / options.raw_dir, root / options.updates_dir
    if raw_dir.is_dir():
        load_raw_documents(raw_dir, sink)
    if updates_dir.is_dir():
        load_kb_updates(updates_dir, sink)
    if options.questions is not None:
        path = root / options.questions
        if not path.is_file() and options.questions == DEFAULT_QUESTIONS:
            path = root / "questions.csv"  # the default may be a CSV file instead
        if not path.is_file():
            raise RowError(
                root / options.questions,
                "questions file not found (questions.jsonl or .csv)",
                reason="missing_file",
            )
        load_questions(path, sink)
    for source in options.chat_logs:
        load_chat_logs(root, source, sink)
