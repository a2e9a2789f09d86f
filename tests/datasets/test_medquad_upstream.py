"""The medquad adapter on upstream's layout: XML folders `<n>_<Collection>_QA/` at the repo root.

The fixture documents are made up in upstream's format; the mirror test rebuilds upstream's XML
from the shared subset's pairs and checks both layouts give the same questions and KB passages.
"""

from __future__ import annotations

import json
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import pytest

from parakh.config import compose
from parakh.datasets import load_dataset
from parakh.errors import InputError
from tests.datasets.mirror import mirror_folder


def document_xml(
    doc_id: str, source: str, focus: str, pairs: list[tuple[str, str, str, str]], url: str = ""
) -> str:
    """One upstream `<Document>`; pairs are (qid, qtype, question, answer)."""
    body = "".join(
        f'\t<QAPair pid="{i}">\n\t\t\t<Question qid={quoteattr(qid)} qtype={quoteattr(qtype)}>'
        f"{escape(question)}</Question>\n\t\t\t<Answer>{escape(answer)}</Answer>\n\t</QAPair>\n"
        for i, (qid, qtype, question, answer) in enumerate(pairs, start=1)
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<Document id={quoteattr(doc_id)} '
        f"source={quoteattr(source)} url={quoteattr(url or 'https://example.org/' + doc_id)}>\n"
        f"<Focus>{escape(focus)}</Focus>\n<QAPairs>\n{body}</QAPairs>\n</Document>\n"
    )


def _options(**changes: object) -> dict[str, object]:
    """conf/dataset/medquad.yaml's options (its `file` is absent upstream, so XML is read)."""
    return {**compose(["dataset=medquad"]).dataset.options, **changes}


def _write(root: Path, folder: str, name: str, text: str) -> None:
    (root / folder).mkdir(parents=True, exist_ok=True)
    (root / folder / name).write_text(text, encoding="utf-8")


@pytest.fixture
def upstream(tmp_path: Path) -> Path:
    root = tmp_path / "MedQuAD"
    _write(
        root,
        "5_NIDDK_QA",
        "0000001.xml",
        document_xml(
            "0000001",
            "NIDDK",
            "Type 9 Diabetes",
            [
                (
                    "0000001-1",
                    "information",
                    "What is (are) Type 9 Diabetes ?",
                    "A made-up & <b>form</b>.",
                ),
                (
                    "0000001-2",
                    "treatment",
                    "What are the treatments for Type 9 Diabetes ?",
                    "  Rest.\n  ",
                ),
            ],
        ),
    )
    _write(
        root,
        "5_NIDDK_QA",
        "0000002.xml",
        document_xml(
            "0000002",
            "NIDDK",
            "Kidney Stones",
            [
                (
                    "0000002-1",
                    "information",
                    "What is (are) Kidney Stones ?",
                    "Not a selected topic.",
                ),
            ],
        ),
    )
    _write(
        root,
        "1_CancerGov_QA",
        "0000001_1.xml",
        document_xml(
            "0000001_1",
            "CancerGov",
            "Retinoblastoma",
            [("0000001_1-1", "information", "What is it ?", "An eye cancer.")],
        ),
    )
    _write(
        root,
        "3_GHR_QA",
        "0000001.xml",
        document_xml(
            "0000001",
            "GHR",
            "Diabetic eye gene",
            [("0000001-1", "information", "What is it ?", "Excluded source.")],
        ),
    )
    _write(
        root,
        "11_MPlusDrugs_QA",
        "0000001.xml",
        document_xml(
            "0000001",
            "MPlusDrugs",
            "Diabetes drug",
            [("0000001-1", "information", "What is it ?", "Withheld.")],
        ),
    )
    _write(
        root,
        "4_MPlus_Health_Topics_QA",
        "0000001.xml",
        document_xml(
            "0000001",
            "MPlusHealthTopics",
            "Malaria",
            [("0000001-1", "information", "What is it ?", "")],
        ),
    )
    return root


def test_upstream_pairs_are_selected_by_source_and_focus_topic(upstream: Path) -> None:
    loaded = load_dataset("medquad", upstream, _options())
    assert [q.id for q in loaded.questions] == [
        "1_CancerGov_QA/0000001_1-1",  # folders in number order, not name order
        "5_NIDDK_QA/0000001-1",
        "5_NIDDK_QA/0000001-2",
    ]  # Kidney Stones: no topic; GHR: excluded; folder 11: not read; an empty answer: left out
    q = loaded.questions[1]
    assert q.reference_answers == ["A made-up & <b>form</b>."]  # entities decoded
    assert q.meta["topics"] == ["diabetes"] and q.meta["qtype"] == "information"
    assert q.meta["gold_document"] == "answer:5_NIDDK_QA/0000001-1"
    assert loaded.questions[2].reference_answers == ["Rest."]
    assert loaded.questions[0].meta["topics"] == ["eye"]
    doc = loaded.documents[1]
    assert (doc.id, doc.title, doc.source) == (
        "answer:5_NIDDK_QA/0000001-1", "Type 9 Diabetes", "5_NIDDK_QA/0000001.xml",
    )  # fmt: skip
    every = load_dataset("medquad", upstream, _options(topics=None, exclude_sources=[]))
    assert len(every.questions) == 5  # + Kidney Stones, + GHR; still not folder 11 or the empty


def test_bad_xml_names_the_file(upstream: Path) -> None:
    _write(upstream, "9_CDC_QA", "0000003.xml", "<Document><Focus>Cholera</Focus>")
    with pytest.raises(InputError, match=r"0000003\.xml.*not valid XML"):
        load_dataset("medquad", upstream, _options(), strict=True)
    lenient = load_dataset("medquad", upstream, _options(), strict=False)
    assert [r.reason for r in lenient.rejected] == ["invalid_xml"]
    assert len(lenient.questions) == 3


def test_a_folder_in_neither_layout_names_both(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"medquad_subset\.jsonl \(parsed layout\).*upstream"):
        load_dataset("medquad", tmp_path, _options())


def test_upstream_xml_rebuilt_from_the_mirror_gives_the_mirror_dataset(
    shared_data: Path, tmp_path: Path
) -> None:
    mirror = mirror_folder(shared_data, "medquad")
    options = _options()
    rows = [json.loads(line) for line in (mirror / options["file"]).open(encoding="utf-8")]
    by_file: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        by_file.setdefault(row["xml_path"], []).append(row)
    for xml_path, pairs in by_file.items():
        first = pairs[0]
        folder, name = xml_path.split("/")
        text = document_xml(first["document_id"], first["source"], first["focus"], [
            (p["qid"], p["qtype"], p["question"], p["answer"]) for p in pairs
        ], first["url"])  # fmt: skip
        _write(tmp_path, folder, name, text)
    parsed = load_dataset("medquad", mirror, options, strict=True)
    rebuilt = load_dataset("medquad", tmp_path, options, strict=True)
    assert len(parsed.questions) == 429
    by_id = {q.id: q for q in rebuilt.questions}
    assert len(by_id) == 429
    assert [by_id[q.id] for q in parsed.questions] == parsed.questions
    docs = {d.id: d for d in rebuilt.documents}
    for d in parsed.documents:
        assert docs[d.id].model_copy(update={"source": d.source}) == d
