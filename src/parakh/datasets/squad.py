"""SQuAD v1.1 / XQuAD JSON: Wikipedia paragraphs with extractive questions and gold spans.

`{"version", "data": [{"title", "paragraphs": [{"context", "qas": [{"id", "question",
"answers": [{"text", "answer_start"}]}]}]}]}`. Each question gets its paragraph as its one
relevant context passage and its gold spans as reference answers; every paragraph also goes
into the KB (pooling the paragraphs makes a small retrieval test). A file's language is given
in `files` or read from its name (`xquad.hi.json`). The dataset path is a folder holding the
files, or one file (as `parakh import-data xquad_hi` brings upstream's `xquad.hi.json` to
`data/raw/xquad_hi`) whose language is that of the one file `files` names. Errors name the JSON
path of the value.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import Field

from parakh.datasets.records import Record, decode, parse_json, parse_language, source_files
from parakh.datasets.registry import AdapterOptions
from parakh.datasets.rows import RowError, RowSink
from parakh.hashing import canonical_json
from parakh.schema import KBDocument, Passage, Question

_LANGUAGE_IN_NAME = re.compile(r"\.([a-z]{2,3})\.json$")


class SquadOptions(AdapterOptions):
    files: dict[str, str] | None = Field(
        default=None,
        description="file name -> language; None: every *.json, language from `name.xx.json`",
    )
    paragraphs_as_kb: bool = True


def _language_of(path: Path, options: SquadOptions) -> str:
    given = options.files.get(path.name) if options.files else None
    match = _LANGUAGE_IN_NAME.search(path.name)
    value = given or (match.group(1) if match else None)

    def error(message: str, reason: str) -> RowError:
        return RowError(path, message, field="language", reason=reason)

    if value is None:
        raise error(
            "no language: name the file `<name>.<lang>.json` or set options.files",
            "unknown_language",
        )
    return parse_language(value, error)


def _items(node: Any, key: str, path: Path, where: str) -> list[Any]:
    value = node.get(key) if isinstance(node, dict) else None
    if not isinstance(value, list):
        raise RowError(
            path, "missing or not a list", field=f"{where}.{key}", reason="missing_field"
        )
    return value


def _question(
    qa: Any, where: str, path: Path, language: str, context: str, passage: Passage, title: str
) -> Question:
    if not isinstance(qa, dict):
        raise RowError(path, "expected an object", field=where)
    record = Record(path, None, qa, where=where)
    record.check_utf8()
    answers = record.raw("answers")
    if not isinstance(answers, list) or not answers:
        raise record.error("answers", "expected a non-empty list of answers", "missing_field")
    references: list[str] = []
    starts: list[int] = []
    for i, answer in enumerate(answers):
        span = Record(
            path, None, answer if isinstance(answer, dict) else {}, f"{where}.answers[{i}]"
        )
        text, start = span.text("text", strip=False), span.integer("answer_start")
        if context[start : start + len(text)] != text:
            raise span.error(
                "answer_start",
                f"context[{start}:{start + len(text)}] is not the answer text {text!r}",
            )
        if text not in references:
            references.append(text)
        starts.append(start)
    qid = record.text("id")
    fields = {
        "id": f"{qid}-{language}",
        "text": record.text("question"),
        "language": language,
        "label_source": {"language": "dataset"},
        "reference_answers": references,
        "contexts": [passage],
        "meta": {"parallel_id": qid, "title": title, "answer_starts": starts},
    }
    return record.build(Question, fields)


def load_file(path: Path, options: SquadOptions, sink: RowSink) -> None:
    language = _language_of(path, options)
    document = parse_json(path, decode(path), None)
    if not isinstance(document, dict):
        raise RowError(
            path, "expected a SQuAD object with 'data'", field="data", reason="missing_field"
        )
    for a, article in enumerate(_items(document, "data", path, "(root)")):
        where_article = f"data[{a}]"
        title = article.get("title") if isinstance(article, dict) else None
        if not isinstance(title, str) or not title.strip():
            raise RowError(
                path,
                "missing article title",
                field=f"{where_article}.title",
                reason="missing_field",
            )
        for p, paragraph in enumerate(_items(article, "paragraphs", path, where_article)):
            where = f"{where_article}.paragraphs[{p}]"
            qas: list[Any] = []
            with sink.guard(canonical_json(paragraph)):
                record = Record(path, None, paragraph if isinstance(paragraph, dict) else {}, where)
                record.check_utf8()
                context = record.text("context", strip=False)
                passage_id = f"{language}:{title}:{p}"
                passage = Passage(id=passage_id, text=context, relevant=True, title=title)
                qas = _items(paragraph, "qas", path, where)
                if options.paragraphs_as_kb:
                    sink.add_document(
                        KBDocument(
                            id=passage_id, text=context, source=path.name, kind="raw", title=title
                        ),
                        record.origin,
                    )
            for q, qa in enumerate(qas):
                where_qa = f"{where}.qas[{q}]"
                with sink.guard(canonical_json(qa)):
                    question = _question(qa, where_qa, path, language, context, passage, title)
                    sink.add_question(question, Record(path, None, {}, where_qa).origin)


def load_squad(root: Path, options: SquadOptions, sink: RowSink) -> None:
    paths = source_files(root, options.files, "*.json", "SQuAD JSON")
    files = options.files
    if root.is_file() and files and root.name not in files and len(files) == 1:
        # One file imported under the dataset's name (data/raw/xquad_hi): it is the one file
        # `files` names, so that file's language applies.
        (language,) = files.values()
        options = options.model_copy(update={"files": {root.name: language}})
    for path in paths:
        load_file(path, options, sink)
