"""Every adapter loads its real files in ../shared/data and round-trips through the schema."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from parakh.config import compose
from parakh.datasets import LoadedDataset, load_dataset
from parakh.io import read_jsonl, write_jsonl
from parakh.schema import HumanJudgment, KBDocument, Question
from parakh.text.languages import LANGUAGES


def _load(config: str, shared_data: Path) -> LoadedDataset:
    """Load through the dataset's own conf/dataset/<config>.yaml (adapter and options)."""
    cfg = compose([f"dataset={config}"]).dataset
    root = shared_data / Path(cfg.path).relative_to("../shared/data")
    return load_dataset(cfg.adapter, root, cfg.options, strict=True)


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
    assert Counter(q.language for q in loaded.questions) == {code: 154 for code in LANGUAGES}
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
