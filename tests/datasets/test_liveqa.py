"""The liveqa_med adapter: upstream's files (qrels and answers zip, questions XML) give the same
questions and judgments as the joined judgments.jsonl of the mirror; bad upstream rows name the
file, line and field."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from parakh.config import compose
from parakh.datasets import RowError, load_dataset
from tests.datasets.liveqa_upstream import (
    ANSWERS,
    FOLDER,
    QRELS,
    WITHHELD,
    XML,
    ZIP,
    reference_answers,
    write_upstream,
)
from tests.datasets.mirror import mirror_folder


def _options() -> dict[str, object]:
    cfg = compose(["dataset=liveqa_judgments"]).dataset
    assert cfg.adapter == "liveqa_med"
    return dict(cfg.options)


@pytest.fixture
def judgments(shared_data: Path) -> Path:
    return mirror_folder(shared_data, "liveqa_judgments") / "judgments.jsonl"


@pytest.mark.parametrize("zipped", [True, False])
def test_upstream_layout_gives_the_parsed_rows(
    judgments: Path, tmp_path: Path, zipped: bool
) -> None:
    write_upstream(judgments, tmp_path / "up", zipped=zipped)
    upstream = load_dataset("liveqa_med", tmp_path / "up", _options())
    parsed = load_dataset("liveqa_med", judgments.parent, _options())
    assert upstream.rejected == [] and parsed.rejected == []
    # the same questions, plus the XML's reference answers the mirror does not carry
    assert len(parsed.questions) == 63 and all(not q.reference_answers for q in parsed.questions)
    assert upstream.questions == [
        q.model_copy(update={"reference_answers": reference_answers(q.meta["liveqa_qid"])})
        for q in parsed.questions
    ]
    assert upstream.judgments == parsed.judgments and len(parsed.judgments) == 408
    without = load_dataset(
        "liveqa_med", tmp_path / "up", {**_options(), "reference_answers": False}
    )
    assert without.questions == parsed.questions
    # the withheld MedlinePlus answers are in the zip but not in the judgments
    assert not any(j.answer_id in WITHHELD for j in upstream.judgments)


def test_withheld_answers_are_kept_on_request(judgments: Path, tmp_path: Path) -> None:
    write_upstream(judgments, tmp_path)
    options = {**_options(), "exclude_answer_prefixes": []}
    loaded = load_dataset("liveqa_med", tmp_path, options)
    assert len(loaded.judgments) == 408 + len(WITHHELD)
    assert {j.answer_id for j in loaded.judgments} >= set(WITHHELD)


def _rewrite_qrels(folder: Path, edit: str) -> None:
    archive = folder / ZIP
    with zipfile.ZipFile(archive) as z:
        members = {name: z.read(name) for name in z.namelist()}
    key = f"{FOLDER}/{QRELS}"
    lines = members[key].decode().split("\n")
    lines[5] = edit
    members[key] = "\n".join(lines).encode()
    with zipfile.ZipFile(archive, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)


@pytest.mark.parametrize(
    ("line", "field", "message"),
    [
        ("2 4-Excellent", "(row)", "expected 'Question_ID judgment Answer_ID', got 2 fields"),
        ("999 4-Excellent GHR_0000163_Sec1.txt", "Question_ID", "no NLM-QUESTION qid='TQ999'"),
        ("2 4-Excellent GHR_9999999_Sec1.txt", "Answer_ID", "has no text in the answers CSV"),
        ("2 5-Superb GHR_0000163_Sec1.txt", "score", "outside the scale 1..4"),
    ],
)
def test_a_bad_qrels_line_names_file_line_and_field(
    judgments: Path, tmp_path: Path, line: str, field: str, message: str
) -> None:
    write_upstream(judgments, tmp_path)
    _rewrite_qrels(tmp_path, line)
    with pytest.raises(RowError) as caught:
        load_dataset("liveqa_med", tmp_path, _options())
    error = caught.value
    assert error.line == 6 and error.field == field and message in str(error)
    assert f"{ZIP}/{FOLDER}/{QRELS}" in str(error)


def test_a_bad_row_is_quarantined_in_lenient_mode(judgments: Path, tmp_path: Path) -> None:
    write_upstream(judgments, tmp_path)
    _rewrite_qrels(tmp_path, "2 4-Excellent GHR_9999999_Sec1.txt")
    loaded = load_dataset("liveqa_med", tmp_path, _options(), strict=False)
    assert len(loaded.rejected) == 1 and loaded.rejected[0].reason == "invalid_value"
    assert len(loaded.judgments) == 407  # line 6 was a kept pair; every other row is there


def test_missing_upstream_file_says_which(judgments: Path, tmp_path: Path) -> None:
    write_upstream(judgments, tmp_path)
    (tmp_path / XML).unlink()
    with pytest.raises(RowError, match=f"upstream layout: {XML} not found"):
        load_dataset("liveqa_med", tmp_path, _options())


def test_a_file_found_twice_is_ambiguous(judgments: Path, tmp_path: Path) -> None:
    write_upstream(judgments, tmp_path)
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / ANSWERS).write_text("AnswerID,Answer\n", encoding="utf-8")
    with pytest.raises(RowError, match=f"{ANSWERS} found more than once"):
        load_dataset("liveqa_med", tmp_path, _options())
