"""Upstream's LiveQA-Med files (the MedQuAD qrels zip and the LiveQA test-question XML), written
back from the joined rows of the shared mirror, for tests of the upstream layout and its import.

The mirror's README says how its rows were joined from those files; this undoes the join: one
qrels line per row (plus A.D.A.M. answers, which the adapter leaves out by default), the answer
texts in a CSV, both zipped as upstream zips them (a folder and macOS `__MACOSX/` copies), and one
`NLM-QUESTION` per question with its fields padded by whitespace, as upstream's XML has them, and
two made-up reference answers (plus a blank one) under both of upstream's element names.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from typing import Any

import yaml

from tests.support.dvc_project import git_init, stage_env

ZIP = "QA-TestSet-LiveQA-Med-Qrels-2479-Answers.zip"
FOLDER = "QA-TestSet-LiveQA-Med-Qrels-2479-Answers"
QRELS = "All-qrels_LiveQAMed2017-TestQuestions_2479_Judged-Answers.txt"
ANSWERS = "All-2479-Answers-retrieved-from-MedQuAD.csv"
XML = "TREC-2017-LiveQA-Medical-Test-Questions-w-summaries.xml"
WITHHELD = ("ADAM_0003147_Sec1.txt", "MPlusDrugs_0000012_Sec3.txt")


def mirror_rows(judgments: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in judgments.read_text(encoding="utf-8").splitlines()]


def qrels_and_answers(rows: list[dict[str, Any]]) -> tuple[str, str]:
    """(qrels text, answers CSV text); each withheld answer is judged for the first question."""
    lines = [f"{rows[0]['Question_ID']} 1-Incorrect {answer_id}" for answer_id in WITHHELD]
    lines += [f"{r['Question_ID']} {r['judgment']} {r['Answer_ID']}" for r in rows]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["AnswerID", "Answer"])
    texts = {answer_id: f"Question: withheld\nAnswer: {answer_id}" for answer_id in WITHHELD}
    texts.update({r["Answer_ID"]: r["Answer"] for r in rows})
    writer.writerows(texts.items())
    return "\n".join(lines) + "\n", out.getvalue()


def reference_answers(liveqa_qid: str) -> list[str]:
    """The reference answers written for a question (the mirror has none: not redistributed)."""
    return [f"Reference one for {liveqa_qid}.", f"Reference two for {liveqa_qid}."]


def questions_xml(rows: list[dict[str, Any]]) -> str:
    root = ET.Element("LiveQA2017-Medical-Test-Set-Full")
    seen: set[str] = set()
    for r in rows:
        if r["liveqa_qid"] in seen:
            continue
        seen.add(r["liveqa_qid"])
        question = ET.SubElement(root, "NLM-QUESTION", qid=r["liveqa_qid"])
        original = ET.SubElement(question, "Original-Question", qfile="1.txt")
        ET.SubElement(original, "SUBJECT").text = f" {r['SUBJECT']}\n\t"
        ET.SubElement(original, "MESSAGE").text = f"\n{r['MESSAGE']} "
        ET.SubElement(question, "NIST-PARAPHRASE").text = r["NIST-PARAPHRASE"]
        ET.SubElement(question, "NLM-Summary").text = f"{r['NLM-Summary']}\n"
        ET.SubElement(ET.SubElement(question, "ANNOTATIONS"), "FOCUS", fid="F1").text = "x"
        references = ET.SubElement(question, "ReferenceAnswers")
        for i, text in enumerate(["", *reference_answers(r["liveqa_qid"])]):
            tag = "RefAnswer" if i % 2 else "ReferenceAnswer"  # upstream uses both
            answer = ET.SubElement(references, tag, aid=f"{r['liveqa_qid']}A{i}")
            ET.SubElement(answer, "ANSWER").text = f"\n\t{text} "  # one blank, left out
            ET.SubElement(answer, "AnswerURL").text = "https://example.org"
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def write_upstream(judgments: Path, folder: Path, *, zipped: bool = True) -> list[Path]:
    """Upstream's two files in `folder` (the qrels and answers zipped, or extracted into a
    subfolder); returns the paths written."""
    rows = mirror_rows(judgments)
    qrels, answers = qrels_and_answers(rows)
    folder.mkdir(parents=True, exist_ok=True)
    xml_path = folder / XML
    xml_path.write_text(questions_xml(rows), encoding="utf-8")
    if not zipped:
        (folder / FOLDER).mkdir()
        (folder / FOLDER / QRELS).write_text(qrels, encoding="utf-8")
        (folder / FOLDER / ANSWERS).write_text(answers, encoding="utf-8")
        return [folder / FOLDER / QRELS, folder / FOLDER / ANSWERS, xml_path]
    with zipfile.ZipFile(folder / ZIP, "w") as z:
        z.writestr(f"{FOLDER}/{QRELS}", qrels)
        z.writestr(f"__MACOSX/{FOLDER}/._{QRELS}", b"\x00\x05\x16\x07")
        z.writestr(f"{FOLDER}/{ANSWERS}", answers)
    return [folder / ZIP, xml_path]


def upstream_repos(tmp_path: Path, judgments: Path) -> dict[str, tuple[str, str]]:
    """Two local git repositories holding upstream's files where upstream has them (MedQuAD's
    zip at its root, LiveQA's XML under TestDataset/); {path in repo: (repo, commit)}."""
    files = write_upstream(judgments, tmp_path / "files")
    env = stage_env(tmp_path)
    placed = {}
    for name, path in zip(("medquad", "liveqa"), files, strict=True):
        repo = tmp_path / "upstream" / name
        inner = path.name if name == "medquad" else f"TestDataset/{path.name}"
        (repo / inner).parent.mkdir(parents=True)
        shutil.copy(path, repo / inner)
        git_init(repo, env)
        rev = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
        placed[inner] = (str(repo), rev)
    return placed


def point_source_at(project: Path, placed: dict[str, tuple[str, str]]) -> None:
    """conf/dataset/liveqa_judgments.yaml of `project` imports from the `placed` repositories."""
    conf = project / "conf/dataset/liveqa_judgments.yaml"
    document = yaml.safe_load(conf.read_text(encoding="utf-8"))
    for entry in document["source"]["files"]:
        entry["repo"], entry["rev"] = placed[entry["path"]]
    conf.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
