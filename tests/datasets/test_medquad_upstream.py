"""The medquad adapter on upstream's layout: XML folders `<n>_<Collection>_QA/` at the repo root.

The fixture is upstream's own files at the pinned commit (tests/datasets/fixtures/medquad_upstream,
README there); the mirror test rebuilds upstream's XML from the shared subset's pairs and checks
both layouts give the same questions and KB passages.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import pytest

from parakh.config import compose
from parakh.datasets import load_dataset
from parakh.errors import InputError
from tests.datasets.mirror import mirror_folder

FIXTURE = Path(__file__).parent / "fixtures" / "medquad_upstream"


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
    """A copy of the real fixture (fixtures/README.md): upstream's files at the pinned commit."""
    root = tmp_path / "MedQuAD"
    shutil.copytree(FIXTURE, root)
    return root


SELECTED = [
    "4_MPlus_Health_Topics_QA/0000158-1",  # Cataract
    "4_MPlus_Health_Topics_QA/0000406-1",  # Glaucoma
    *(
        f"7_SeniorHealth_QA/0000027-{pid}"
        for pid in (1, 2, 3, 4, 7, 8, 9, 13, 14, 15, 18, 22, 23, 25)
    ),
]


def test_upstream_pairs_are_selected_by_source_and_focus_topic(upstream: Path) -> None:
    loaded = load_dataset("medquad", upstream, _options())
    # folders in number order; CDC's Yellow Fever: no topic; GARD and GHR: excluded sources
    # (their cataract documents too); folders 10-12 (answers withheld upstream): not read
    assert [q.id for q in loaded.questions] == SELECTED
    q = loaded.questions[1]
    assert q.text == "What is (are) Glaucoma ?"
    assert q.reference_answers[0].startswith(
        "Glaucoma is a group of diseases that can damage the eye's"
    )
    assert q.meta["topics"] == ["eye"] and q.meta["qtype"] == "information"
    assert q.meta["gold_document"] == "answer:4_MPlus_Health_Topics_QA/0000406-1"
    doc = loaded.documents[0]
    assert (doc.id, doc.title) == ("answer:4_MPlus_Health_Topics_QA/0000158-1", "Cataract")
    assert doc.source == "4_MPlus_Health_Topics_QA/0000158.xml"
    every = load_dataset("medquad", upstream, _options(topics=None, exclude_sources=[]))
    assert Counter(q.id.split("/")[0] for q in every.questions) == {
        "4_MPlus_Health_Topics_QA": 2, "7_SeniorHealth_QA": 14, "9_CDC_QA": 1, "2_GARD_QA": 1,
        "3_GHR_QA": 5,
    }  # fmt: skip


def test_an_empty_answer_is_left_out_and_spaces_are_trimmed(upstream: Path) -> None:
    path = upstream / "4_MPlus_Health_Topics_QA" / "0000406.xml"
    text = path.read_text(encoding="utf-8")
    answer = text[text.index("<Answer>") : text.index("</Answer>") + len("</Answer>")]
    path.write_text(text.replace(answer, "<Answer>\n  \n</Answer>"), encoding="utf-8")
    cataract = upstream / "4_MPlus_Health_Topics_QA" / "0000158.xml"
    text = cataract.read_text(encoding="utf-8")
    cataract.write_text(text.replace("<Answer>", "<Answer>\n   "), encoding="utf-8")
    loaded = load_dataset("medquad", upstream, _options())
    assert [q.id for q in loaded.questions] == [SELECTED[0], *SELECTED[2:]]
    assert loaded.questions[0].reference_answers[0].startswith("A cataract is a clouding")


def test_bad_xml_names_the_file(upstream: Path) -> None:
    _write(upstream, "9_CDC_QA", "0000003.xml", "<Document><Focus>Cholera</Focus>")
    with pytest.raises(InputError, match=r"0000003\.xml.*not valid XML"):
        load_dataset("medquad", upstream, _options(), strict=True)
    lenient = load_dataset("medquad", upstream, _options(), strict=False)
    assert [r.reason for r in lenient.rejected] == ["invalid_xml"]
    assert len(lenient.questions) == len(SELECTED)


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
