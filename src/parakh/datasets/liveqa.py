"""TREC-2017 LiveQA-Med test questions x MedQuAD answers, with human grades 1-4.

Two layouts are read, giving the same questions and judgments.

Upstream (what `parakh import-data liveqa_judgments` brings, two `dvc import`s):
- `QA-TestSet-LiveQA-Med-Qrels-2479-Answers.zip` from github.com/abachaa/MedQuAD, holding the
  qrels `All-qrels_LiveQAMed2017-TestQuestions_2479_Judged-Answers.txt` (`Question_ID judgment
  Answer_ID`, space separated; judgments `1-Incorrect` .. `4-Excellent`, the LiveQA scale) and
  the judged texts `All-2479-Answers-retrieved-from-MedQuAD.csv` (`AnswerID,Answer`); the zip is
  read as it is, or its files extracted anywhere under the folder;
- `TREC-2017-LiveQA-Medical-Test-Questions-w-summaries.xml` from
  github.com/abachaa/LiveQA_MedicalTask_TREC2017: `<NLM-QUESTION qid="TQ<n>">` with
  `Original-Question/SUBJECT`, `MESSAGE`, `NIST-PARAPHRASE` and `NLM-Summary`; qrels question
  `n` is `TQ<n>`.
Each qrels line becomes one judged pair with the fields of the parsed layout below, and the
question's reference answers from the XML (`ReferenceAnswers/*/ANSWER`, expert-validated
answers from trusted sources, per upstream's readme; 167 for the 104 questions) become its
`reference_answers` (option `reference_answers`), so reference metrics can score the answers.
Answers from the three MedlinePlus collections whose text MedQuAD's own XML withholds for
copyright (`ADAM_`, `MPlusDrugs_`, `MPlusHerbsSuppls_`) are left out by default
(`exclude_answer_prefixes`), though the zip's CSV holds them: 565 of the 2,479 judged pairs
remain, on 86 of 104 questions.

Parsed: `file` (judgments.jsonl), one judged pair a line (`Question_ID`, `liveqa_qid`,
`SUBJECT`, `MESSAGE`, `NIST-PARAPHRASE`, `NLM-Summary`, `judgment`, `score`, `Answer_ID`,
`answer_source`, `Answer`, optionally `reference_answers`), read as `human_judgments` reads
any judgment file. The layout is the parsed one when `file` exists, else the upstream one.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field

from parakh.datasets.judgments import JudgmentOptions, JudgmentReader, load_judgments
from parakh.datasets.records import Record, csv_rows
from parakh.datasets.rows import RowError, RowSink


class LiveQAOptions(JudgmentOptions):
    qrels: str = Field(
        default="All-qrels_LiveQAMed2017-TestQuestions_2479_Judged-Answers.txt",
        description="upstream layout: the qrels file (in a .zip of the folder, or under it)",
    )
    answers: str = Field(
        default="All-2479-Answers-retrieved-from-MedQuAD.csv",
        description="upstream layout: the judged answer texts, AnswerID,Answer",
    )
    questions_xml: str = Field(
        default="TREC-2017-LiveQA-Medical-Test-Questions-w-summaries.xml",
        description="upstream layout: the LiveQA-Med test questions",
    )
    reference_answers: bool = Field(
        default=True,
        description="upstream layout: each question's reference answers from the XML "
        "(`ReferenceAnswers/*/ANSWER`) become its reference_answers",
    )
    exclude_answer_prefixes: list[str] = Field(
        default_factory=lambda: ["ADAM_", "MPlusDrugs_", "MPlusHerbsSuppls_"],
        description="upstream layout: Answer_ID prefixes left out (the MedlinePlus "
        "collections whose answers MedQuAD withholds); [] keeps all 2,479 pairs",
    )


@dataclass(frozen=True)
class SourceText:
    """One upstream file's text, and the path errors name (`<zip>/<member>` inside a zip)."""

    path: Path
    text: str


def find_file(root: Path, name: str) -> SourceText:
    """`name` under `root`, or inside a .zip directly in `root` (macOS `__MACOSX/` copies
    ignored); exactly one must exist."""
    found: list[SourceText] = []
    for path in sorted(root.rglob(name)):
        if path.is_file() and "__MACOSX" not in path.parts:
            found.append(SourceText(path, path.read_bytes().decode("utf-8", "surrogateescape")))
    for archive in sorted(root.glob("*.zip")):
        try:
            with zipfile.ZipFile(archive) as z:
                for member in z.namelist():
                    if member.rsplit("/", 1)[-1] == name and not member.startswith("__MACOSX/"):
                        data = z.read(member).decode("utf-8", "surrogateescape")
                        found.append(SourceText(archive / member, data))
        except zipfile.BadZipFile as e:
            raise RowError(archive, f"not a valid zip file ({e})", reason="invalid_zip") from None
    if not found:
        raise RowError(
            root,
            f"upstream layout: {name} not found (in the folder or a .zip in it)",
            reason="missing_file",
        )
    if len(found) > 1:
        places = ", ".join(str(f.path) for f in found)
        raise RowError(root, f"{name} found more than once: {places}", reason="ambiguous_file")
    return found[0]


def _stripped(element: ET.Element | None) -> str:
    return (element.text or "").strip() if element is not None else ""


def question_fields(source: SourceText, references: bool) -> dict[str, dict[str, Any]]:
    """qid (`TQ<n>`) -> the question's SUBJECT, MESSAGE, NIST-PARAPHRASE and NLM-Summary, and
    with `references` its non-blank reference answers (`reference_answers`), in file order."""
    try:
        root = ET.fromstring(source.text)
    except ET.ParseError as e:
        line = e.position[0] if e.position else None
        raise RowError(
            source.path, f"not valid XML ({e})", line=line, reason="invalid_xml"
        ) from None
    fields: dict[str, dict[str, Any]] = {}
    for question in root.iter("NLM-QUESTION"):
        entry: dict[str, Any] = {
            "SUBJECT": _stripped(question.find("Original-Question/SUBJECT")),
            "MESSAGE": _stripped(question.find("Original-Question/MESSAGE")),
            "NIST-PARAPHRASE": _stripped(question.find("NIST-PARAPHRASE")),
            "NLM-Summary": _stripped(question.find("NLM-Summary")),
        }
        if references:  # <RefAnswer> in a few questions, <ReferenceAnswer> in the rest
            answers = (_stripped(a) for a in question.iterfind("ReferenceAnswers/*/ANSWER"))
            entry["reference_answers"] = [text for text in answers if text]
        fields[question.get("qid", "")] = entry
    return fields


def answer_texts(source: SourceText) -> dict[str, str]:
    """AnswerID -> Answer, verbatim, from the rows as long as the header; the header must name
    both columns."""
    rows = csv_rows(source.path, ("AnswerID", "Answer"), source.text)
    pairs = (
        dict(zip(r.header, r.cells, strict=True)) for r in rows if len(r.cells) == len(r.header)
    )
    return {pair["AnswerID"]: pair["Answer"] for pair in pairs}


def judged_pair(
    record: Record, questions: dict[str, dict[str, Any]], answers: dict[str, str], text: str
) -> dict[str, Any]:
    """The parsed-layout fields of one qrels line (`Question_ID judgment Answer_ID`)."""
    cells = text.split()
    if len(cells) != 3:
        raise record.error(
            "(row)", f"expected 'Question_ID judgment Answer_ID', got {len(cells)} fields"
        )
    number, judgment, answer_id = cells
    qid = f"TQ{number}"
    if qid not in questions:
        raise record.error("Question_ID", f"no NLM-QUESTION qid={qid!r} in the questions XML")
    if answer_id not in answers:
        raise record.error("Answer_ID", f"{answer_id!r} has no text in the answers CSV")
    score = judgment.split("-", 1)[0]
    return {
        "Question_ID": number,
        "liveqa_qid": qid,
        **questions[qid],
        "judgment": judgment,
        "score": int(score) if score.isdigit() else judgment,
        "Answer_ID": answer_id,
        "answer_source": answer_id.split("_", 1)[0],
        "Answer": answers[answer_id],
    }


def load_upstream(root: Path, options: LiveQAOptions, sink: RowSink) -> None:
    """The qrels of the zip joined with its answer texts and the XML's question fields."""
    qrels = find_file(root, options.qrels)
    answers = answer_texts(find_file(root, options.answers))
    questions = question_fields(find_file(root, options.questions_xml), options.reference_answers)
    reader = JudgmentReader(options, sink)
    excluded = tuple(options.exclude_answer_prefixes)
    for lineno, text in enumerate(qrels.text.split("\n"), start=1):
        text, cells = text.rstrip("\r"), text.split()
        if not cells or (excluded and len(cells) == 3 and cells[2].startswith(excluded)):
            continue
        with sink.guard(text):
            place = Record(qrels.path, lineno, {})  # names file and line in errors
            record = Record(qrels.path, lineno, judged_pair(place, questions, answers, text))
            record.check_utf8()
            reader.add(record)


def load_liveqa(root: Path, options: LiveQAOptions, sink: RowSink) -> None:
    if not root.is_dir() or (root / options.file).is_file():
        load_judgments(root, options, sink)
    else:
        load_upstream(root, options, sink)
