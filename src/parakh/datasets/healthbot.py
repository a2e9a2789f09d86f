"""Health-chatbot datasets: a KB folder of raw documents and dated KB updates, plus questions.

Layout (the bundled demo uses it):
    kb/raw/*.md|*.txt          raw hospital documents; a first line `# Title` names the document
    kb/updates/YYYY-MM-DD.md   KB updates added on that date, CataractBot style:
                               `## <question as asked>` then the expert's answer
    questions.jsonl            id, text, language, response_language, categories, asked_at,
                               reference_answer, answerable, domain
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

from parakh.datasets.registry import LoadedDataset, register
from parakh.errors import InputError
from parakh.io import iter_json_objects, read_text, validate_row
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


def load_raw_documents(folder: Path) -> list[KBDocument]:
    docs = []
    for path in sorted([*folder.glob("*.md"), *folder.glob("*.txt")]):
        text = read_text(path).strip()
        if not text:
            raise InputError(path, "document is empty")
        first, _, rest = text.partition("\n")
        title = first.lstrip("# ").strip() if first.startswith("#") else path.stem
        body = rest.strip() if first.startswith("#") else text
        docs.append(
            KBDocument(
                id=f"raw:{path.stem}", text=body, source=str(path.name), kind="raw", title=title
            )
        )
    return docs


def parse_kb_update_entries(text: str, path: Path) -> list[tuple[int, str, str]]:
    """Split `## question` / answer entries; returns (line, question, answer) triples."""
    entries: list[tuple[int, str, str]] = []
    question: str | None = None
    start = 0
    answer_lines: list[str] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            if question is not None:
                entries.append((start, question, "\n".join(answer_lines).strip()))
            question, start, answer_lines = line[3:].strip(), lineno, []
        elif question is None:
            if line.strip():
                raise InputError(path, "text before the first '## ' question", line=lineno)
        else:
            answer_lines.append(line)
    if question is not None:
        entries.append((start, question, "\n".join(answer_lines).strip()))
    for lineno, q, a in entries:
        if not q:
            raise InputError(path, "empty question after '## '", line=lineno, field="question")
        if not a:
            raise InputError(path, f"question {q!r} has no answer", line=lineno, field="answer")
    return entries


def load_kb_updates(folder: Path) -> list[KBDocument]:
    docs = []
    for path in sorted(folder.glob("*.md")):
        if not _DATE_NAME.match(path.stem):
            raise InputError(path, "KB-update files must be named YYYY-MM-DD.md")
        try:
            added = date.fromisoformat(path.stem)
        except ValueError as e:
            raise InputError(path, f"file name is not a valid date: {e}") from e
        for i, (_, question, answer) in enumerate(parse_kb_update_entries(read_text(path), path)):
            docs.append(
                KBDocument(
                    id=f"update:{path.stem}:{i:03d}",
                    text=f"{question}\n{answer}",
                    source=path.name,
                    kind="update",
                    title=question,
                    added_at=added,
                )
            )
    return docs


def question_from_record(obj: dict[str, Any], path: Path, line: int) -> Question:
    unknown = sorted(set(obj) - _QUESTION_FIELDS)
    if unknown:
        raise InputError(
            path,
            f"unknown field (expected {sorted(_QUESTION_FIELDS)})",
            line=line,
            field=unknown[0],
        )
    for required in ("id", "text", "language"):
        if required not in obj:
            raise InputError(path, "missing required field", line=line, field=required)
    reference = obj.get("reference_answer")
    record = {
        "id": obj["id"],
        "text": obj["text"],
        "language": obj["language"],
        "response_language": obj.get("response_language"),
        "categories": obj.get("categories", []),
        "category_sources": {c: "dataset" for c in obj.get("categories", [])},
        "label_source": {"language": "dataset"},
        "reference_answers": [reference] if reference else [],
        "asked_at": obj.get("asked_at"),
        "answerable": obj.get("answerable", True),
        "domain": obj.get("domain"),
    }
    return validate_row(Question, record, path, line)


@register("healthbot")
def load_healthbot(root: Path) -> LoadedDataset:
    if not root.is_dir():
        raise InputError(root, "dataset folder not found")
    raw_dir, updates_dir = root / "kb" / "raw", root / "kb" / "updates"
    documents = load_raw_documents(raw_dir) if raw_dir.is_dir() else []
    if updates_dir.is_dir():
        documents += load_kb_updates(updates_dir)
    questions_path = root / "questions.jsonl"
    if not questions_path.is_file():
        raise InputError(questions_path, "questions file not found")
    questions = [
        question_from_record(obj, questions_path, line)
        for line, obj in iter_json_objects(questions_path)
    ]
    return LoadedDataset(questions=questions, documents=documents)
