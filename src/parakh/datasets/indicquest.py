"""L3Cube-IndicQuest: one CSV per language (`<Language>.csv`), 20 languages, parallel rows.

Columns `Question`, `Answer` (a reference answer of one to a few sentences) and `Domain`
(Literature, History, Geography, Politics, Economics), and in the parsed layout `id` (`iq-NNN`,
the same question in every language). Upstream files (l3cube-pune/indic-nlp,
`L3Cube-IndicQuest/`) have no `id`: a row's id is then `iq-<0-based row index>`, the rule the
parsed layout was made with, since row i is the same question in every language. Header names
are stripped and a BOM is dropped (upstream has one of each). The file name gives the language.
Cells may start with a space: they are stripped. A question's id is `<id>-<language>`;
`meta.parallel_id` keeps the shared id.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from parakh.datasets.records import csv_rows, parse_language, source_files
from parakh.datasets.registry import AdapterOptions
from parakh.datasets.rows import RowError, RowSink
from parakh.schema import Question

COLUMNS = ("Question", "Answer", "Domain")
DOMAINS = ("Economics", "Geography", "History", "Literature", "Politics")


class IndicQuestOptions(AdapterOptions):
    files: list[str] | None = Field(
        default=None, description="file names to read (e.g. Hindi.csv); None: every *.csv"
    )


def file_language(path: Path) -> str:
    """The language a file is named after ("Hindi.csv" -> "hi")."""

    def error(message: str, reason: str) -> RowError:
        return RowError(path, f"file name: {message}", field="language", reason=reason)

    return parse_language(path.stem, error)


def load_file(path: Path, sink: RowSink) -> None:
    language = file_language(path)
    for index, row in enumerate(csv_rows(path, COLUMNS)):
        with sink.guard(row.text):
            record = row.parse()
            domain = record.text("Domain")
            if domain not in DOMAINS:
                raise record.error("Domain", f"unknown domain {domain!r} (expected {DOMAINS})")
            parallel_id = record.text("id") if "id" in row.header else f"iq-{index:03d}"
            fields = {
                "id": f"{parallel_id}-{language}",
                "text": record.text("Question"),
                "language": language,
                "label_source": {"language": "dataset"},
                "reference_answers": [record.text("Answer")],
                "domain": domain,
                "meta": {"parallel_id": parallel_id},
            }
            sink.add_question(record.build(Question, fields), record.origin)


def load_indicquest(root: Path, options: IndicQuestOptions, sink: RowSink) -> None:
    for path in source_files(root, options.files, "*.csv", "IndicQuest CSV"):
        load_file(path, sink)
