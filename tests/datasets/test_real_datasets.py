"""Every adapter loads its real files in ../shared/data and round-trips through the schema.

The configs read data/raw/<dataset>/ (what `parakh import-data` brings); these tests point the
same adapter and options at the mirror folder instead. Upstream layouts the adapters also read
are rebuilt from the mirror by hand (the upstream itself is not reachable offline).
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from parakh.config import compose
from parakh.datasets import LoadedDataset, load_dataset
from parakh.io import read_jsonl, write_jsonl
from parakh.schema import HumanJudgment, KBDocument, Question
from parakh.text.languages import INDIC_LANGUAGES
from tests.datasets.mirror import mirror_folder


def _load(config: str, shared_data: Path) -> LoadedDataset:
    """Load through the dataset's own conf/dataset/<config>.yaml (adapter and options)."""
    cfg = compose([f"dataset={config}"]).dataset
    assert cfg.path == f"data/raw/{config}"  # the contract with dvc.yaml and import-data
    return load_dataset(cfg.adapter, mirror_folder(shared_data, config), cfg.options, strict=True)


def _round_trip(tmp_path: Path, rows: list[Any], model: type[BaseModel]) -> None:
    path = tmp_path / f"{model.__name__}.jsonl"
    assert write_jsonl(path, rows) == len(rows)
    assert read_jsonl(path, model) == rows


def _check(loaded: LoadedDataset, tmp_path: Path) -> None:
    assert loaded.rejected == []
    assert len(loaded.origins) == len(loaded.questions)
    _round_trip(tmp_path, loaded.questions, Question)
    _round_trip(tmp_path, loaded.documents, KBDocument)
    _round_trip(tmp_path, loaded.judgments, HumanJudgment)
    assert len({q.id for q in loaded.questions}) == len(loaded.questions)


def test_cataractbot(shared_data: Path, tmp_path: Path) -> None:
    loaded = _load("cataractbot", shared_data)
    _check(loaded, tmp_path)
    assert len(loaded.questions) == 210  # 187 Generic + 23 BLR (README)
    assert Counter(q.meta["unit"] for q in loaded.questions) == {"Generic": 187, "BLR": 23}
    assert {d.kind for d in loaded.documents} == {"raw"} and len(loaded.documents) == 6
    q = next(q for q in loaded.questions if q.id == "Generic-000")
    assert q.text == "Are there any risks or complications involved?"
    assert q.reference_answers[0].startswith("Yes, there are risks")
    assert q.language == "und" and "language" not in q.label_source  # detected by curate
    assert loaded.origins[0].describe() == "kb_update_qa.jsonl, line 1"


def test_indicquest(shared_data: Path, tmp_path: Path) -> None:
    loaded = _load("indicquest", shared_data)
    _check(loaded, tmp_path)
    assert len(loaded.questions) == 20 * 154
    indicquest_languages = INDIC_LANGUAGES | {"en"}  # English and the 19 Indic languages
    assert Counter(q.language for q in loaded.questions) == dict.fromkeys(indicquest_languages, 154)
    parallel = [q for q in loaded.questions if q.meta["parallel_id"] == "iq-000"]
    assert {q.domain for q in parallel} == {"Politics"} and len(parallel) == 20
    hindi = next(q for q in parallel if q.language == "hi")
    assert hindi.id == "iq-000-hi" and not hindi.text.startswith(" ")  # cells are stripped
    assert hindi.label_source == {"language": "dataset"}
    assert Counter(q.domain for q in loaded.questions if q.language == "en") == {
        "Economics": 31, "Geography": 25, "History": 32, "Literature": 33, "Politics": 33,
    }  # fmt: skip


@pytest.mark.parametrize("language", ["hi", "en"])
def test_xquad(language: str, shared_data: Path, tmp_path: Path) -> None:
    loaded = _load(f"xquad_{language}", shared_data)
    _check(loaded, tmp_path)
    assert len(loaded.questions) == 880 and len(loaded.documents) == 175
    assert {q.language for q in loaded.questions} == {language}
    for q in loaded.questions:
        (context,) = q.contexts
        assert context.relevant is True
        for answer, start in zip(q.reference_answers, q.meta["answer_starts"], strict=False):
            assert context.text[start : start + len(answer)] == answer


def test_xquad_languages_are_parallel(shared_data: Path) -> None:
    hi, en = _load("xquad_hi", shared_data), _load("xquad_en", shared_data)
    assert [q.meta["parallel_id"] for q in hi.questions] == [
        q.meta["parallel_id"] for q in en.questions
    ]


def test_nomiracl(shared_data: Path, tmp_path: Path) -> None:
    loaded = _load("nomiracl", shared_data)
    _check(loaded, tmp_path)
    counts = Counter((q.language, q.subset) for q in loaded.questions)
    assert counts == {
        ("hi", "relevant"): 190, ("hi", "non_relevant"): 107, ("te", "relevant"): 139,
        ("te", "non_relevant"): 88, ("bn", "non_relevant"): 137,
    }  # fmt: skip
    assert len(loaded.documents) == 6095
    for q in loaded.questions:
        assert len(q.contexts) == 10 and q.answerable == (q.subset == "relevant")
        assert all(p.relevant is None for p in q.contexts)  # the label is per query
    assert len(loaded.questions[0].meta["model_outputs"]) == 11


def test_medquad(shared_data: Path, tmp_path: Path) -> None:
    loaded = _load("medquad", shared_data)
    _check(loaded, tmp_path)
    assert len(loaded.questions) == 429 and len(loaded.documents) == 429
    q = loaded.questions[0]
    assert q.id == "1_CancerGov_QA/0000017_1-1"
    assert q.meta["gold_document"] == "answer:" + q.id
    documents = {d.id: d for d in loaded.documents}
    assert documents[q.meta["gold_document"]].text == q.reference_answers[0]
    assert set(q.meta) >= {"qtype", "focus", "topics", "url"}


def test_liveqa_judgments(shared_data: Path, tmp_path: Path) -> None:
    loaded = _load("liveqa_judgments", shared_data)
    _check(loaded, tmp_path)
    assert len(loaded.questions) == 63 and len(loaded.judgments) == 408
    grades = Counter(j.grade for j in loaded.judgments)
    assert grades == {1.0: 213, 2.0: 102, 3.0: 52, 4.0: 41}  # README counts
    assert all(j.question_id in {q.id for q in loaded.questions} for j in loaded.judgments)
    # A pair graded twice stays two rows with their own ids (44 such pairs on this side).
    assert sum(j.id.endswith("#2") for j in loaded.judgments) == 44


def _options(config: str) -> tuple[str, dict[str, Any]]:
    cfg = compose([f"dataset={config}"]).dataset
    return cfg.adapter, cfg.options


def test_cataractbot_upstream_layout(shared_data: Path, tmp_path: Path) -> None:
    """byoeb's documents folder (Generic/ with its documents and GENERIC_KB_Update.txt, BLR/
    with BLR_KB_Update.txt) rebuilt from the mirror gives the same documents and questions, ids
    included."""
    mirror = mirror_folder(shared_data, "cataractbot")
    upstream = tmp_path / "documents"
    (upstream / "Generic").mkdir(parents=True)
    (upstream / "BLR").mkdir()
    for doc in (mirror / "kb").glob("*.txt"):
        (upstream / "Generic" / doc.name).write_bytes(doc.read_bytes())
    entries = [json.loads(line) for line in (mirror / "kb_update_qa.jsonl").open()]
    for unit, name in (("Generic", "GENERIC_KB_Update.txt"), ("BLR", "BLR_KB_Update.txt")):
        by_index = {e["entry_index"]: e for e in entries if e["unit"] == unit}
        blocks = []
        for i in range(max(by_index) + 1):  # held-out entries become placeholders
            e = by_index.get(i, {"question": f"held out {i}", "answer": "placeholder"})
            blocks.append(f"## {e['question']}\n{e['answer']}\n")
        (upstream / unit / name).write_text("\n".join(blocks), encoding="utf-8")
    adapter, options = _options("cataractbot")
    parsed = load_dataset(adapter, mirror, options)
    rebuilt = load_dataset(adapter, upstream, options)
    assert rebuilt.rejected == []
    assert sorted(d.model_dump_json() for d in rebuilt.documents) == sorted(
        d.model_dump_json() for d in parsed.documents
    )
    by_id = {q.id: q for q in rebuilt.questions}
    assert [by_id[q.id] for q in parsed.questions] == parsed.questions
    assert rebuilt.origins[0].describe() == "GENERIC_KB_Update.txt, line 1"
    blr = load_dataset(adapter, mirror, {**options, "hospitals": ["BLR"]})
    assert {q.id for q in blr.questions} == {q.id for q in parsed.questions if q.id[:3] == "BLR"}


def test_indicquest_upstream_layout(shared_data: Path, tmp_path: Path) -> None:
    """Upstream CSVs (no id column, a BOM, a header with a leading space, CRLF) rebuilt from the
    mirror: row i gets id iq-<i>, the same ids as the mirror's."""
    mirror = mirror_folder(shared_data, "indicquest")
    upstream = tmp_path / "L3Cube-IndicQuest"
    upstream.mkdir()
    for name in ("Hindi.csv", "Marathi.csv"):
        with (mirror / name).open(encoding="utf-8", newline="") as f:
            rows = {int(r["id"][3:]): r for r in csv.DictReader(f)}
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(["Question", " Answer", "Domain"])
        for i in range(200):
            row = rows.get(i, {"Question": "held out", "Answer": "x", "Domain": "History"})
            writer.writerow([row["Question"], row["Answer"], row["Domain"]])
        (upstream / name).write_text("\ufeff" + out.getvalue(), encoding="utf-8", newline="")
    (upstream / "eval_prompt.txt").write_text("judge prompt", encoding="utf-8")
    adapter, _ = _options("indicquest")
    parsed = load_dataset(adapter, mirror, {"files": ["Hindi.csv", "Marathi.csv"]})
    rebuilt = load_dataset(adapter, upstream, {})
    assert rebuilt.rejected == [] and len(rebuilt.questions) == 400
    by_id = {q.id: q for q in rebuilt.questions}
    assert [by_id[q.id] for q in parsed.questions] == parsed.questions


@pytest.mark.parametrize("language", ["hi", "en"])
def test_xquad_as_one_imported_file(language: str, shared_data: Path, tmp_path: Path) -> None:
    """`import-data xquad_hi` brings upstream's one file to data/raw/xquad_hi (a file)."""
    imported = tmp_path / f"xquad_{language}"
    dataset = f"xquad_{language}"
    upstream_file = mirror_folder(shared_data, dataset) / f"xquad.{language}.json"
    imported.write_bytes(upstream_file.read_bytes())
    adapter, options = _options(dataset)
    loaded = load_dataset(adapter, imported, options)
    assert len(loaded.questions) == 880 and {q.language for q in loaded.questions} == {language}
