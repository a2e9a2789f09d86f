"""MedQuAD: NIH consumer-health question-answer pairs; every answer is also a KB passage.

Two layouts are read, giving the same questions and KB passages.

Upstream (github.com/abachaa/MedQuAD, what `parakh import-data medquad` brings): folders
`1_CancerGov_QA/` .. `9_CDC_QA/` of XML files, one `<Document id source url>` each, holding
`<Focus>` and `<QAPair pid>` elements (`<Question qid qtype>`, `<Answer>`). Folders 10-12
(MedlinePlus A.D.A.M., drugs, herbs) have their answers removed upstream and are not read; a pair
with an empty answer anywhere is left out, as upstream gives nothing to grade it against. The
selection is options: `exclude_sources` (GHR, GARD: rare genetic diseases) and `topics` (name ->
case-insensitive regex on the document's Focus; a pair is kept when one matches, and
`meta.topics` lists which, in option order). Ids are `<folder>/<qid>` (upstream's qid alone
repeats across folders).

Parsed: `file` (medquad_subset.jsonl), one pair a line with the fields above, read as qa_jsonl
reads any QA JSONL file. The layout is the parsed one when `file` exists, else the upstream one.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from pydantic import Field

from parakh.datasets.qa_jsonl import QAJsonlOptions, add_pair, load_qa_jsonl
from parakh.datasets.records import Record
from parakh.datasets.rows import RowError, RowSink

# The selection of the shared subset: eye, diabetes and common Indian public-health topics.
DEFAULT_TOPICS = {
    "eye": r"cataract|glaucoma|macular|retin|\beyes?\b|vision|blind|ocular|optic|kerat|cornea"
    r"|uveitis|conjunctiv|amblyop|strabism",
    "diabetes": r"diabet",
    "common_india": r"tubercul|malaria|dengue|chikungunya|cholera|typhoid|diarrh|\banemia"
    r"|high blood pressure|heart attack|hepatitis",
}


class MedQuADOptions(QAJsonlOptions):
    folders: str = Field(
        default="[1-9]_*", description="upstream layout: the QA folders read (a glob)"
    )
    exclude_sources: list[str] = Field(
        default_factory=lambda: ["GHR", "GARD"],
        description="upstream layout: Document/@source values left out",
    )
    topics: dict[str, str] | None = Field(
        default_factory=lambda: dict(DEFAULT_TOPICS),
        description="upstream layout: topic -> regex on Focus; a pair is kept when one matches; "
        "None: every pair",
    )


def _text(element: ET.Element | None) -> str | None:
    return element.text if element is not None else None


def document_pairs(path: Path, folder: str) -> list[dict[str, Any]]:
    """One values dict per QA pair of an upstream XML file, its document's fields included."""
    try:
        document = ET.parse(path).getroot()
    except ET.ParseError as e:
        line = e.position[0] if e.position else None
        raise RowError(path, f"not valid XML ({e})", line=line, reason="invalid_xml") from None
    focus = _text(document.find("Focus"))
    doc = {
        "document_id": document.get("id"),
        "source": document.get("source"),
        "url": document.get("url"),
        "focus": focus.strip() if focus else focus,
    }
    pairs = []
    for pair in document.iterfind("QAPairs/QAPair"):
        question = pair.find("Question")
        qid = question.get("qid") if question is not None else None
        pairs.append(
            {
                "id": f"{folder}/{qid}" if qid else None,  # no qid: a missing id, not '.../None'
                "qid": qid,
                "qtype": question.get("qtype") if question is not None else None,
                "pid": pair.get("pid"),
                "question": _text(question),
                "answer": _text(pair.find("Answer")),
                **doc,
                "xml_path": f"{folder}/{path.name}",
            }
        )
    return pairs


def load_upstream(root: Path, options: MedQuADOptions, sink: RowSink) -> None:
    """The XML folders as upstream has them, selected by source and Focus topic."""
    folders = sorted(
        (p for p in root.glob(options.folders) if p.is_dir()),
        key=lambda p: (int(p.name.split("_")[0]) if p.name.split("_")[0].isdigit() else 0, p.name),
    )
    if not folders:
        raise RowError(
            root,
            f"neither {options.file} (parsed layout) nor {options.folders} XML folders "
            "(upstream layout) found",
            reason="missing_file",
        )
    patterns = {name: re.compile(rx, re.IGNORECASE) for name, rx in (options.topics or {}).items()}
    for folder in folders:
        for path in sorted(folder.glob("*.xml")):
            pairs: list[dict[str, Any]] = []
            with sink.guard(f"{folder.name}/{path.name}"):
                pairs = document_pairs(path, folder.name)
            for values in pairs:
                topics = [name for name, rx in patterns.items() if rx.search(values["focus"] or "")]
                if options.topics is not None and not topics:
                    continue
                if values["source"] in options.exclude_sources:
                    continue
                if not (values["answer"] or "").strip():
                    continue  # upstream withholds it (MedlinePlus copyright): nothing to grade
                values["topics"] = topics
                record = Record(path, None, values, where=f"QAPair[@pid={values['pid']}]")
                with sink.guard(values):
                    add_pair(record, options, sink, values["xml_path"])


def load_medquad(root: Path, options: MedQuADOptions, sink: RowSink) -> None:
    if options.file is not None and (root / options.file).is_file():
        load_qa_jsonl(root, options, sink)
    elif not root.is_dir():
        raise RowError(root, "dataset folder not found", reason="missing_file")
    else:
        load_upstream(root, options, sink)
