"""Grades files: blind grades joined to their models through the sheet's key, a folder of
several graders' files, and every bad row named by file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.errors import InputError
from parakh.io import write_json, write_jsonl
from parakh.report.grades_file import AnswerKey, key_path, read_human_grades
from parakh.schema import BlindGrade, HumanGrade

KEY = AnswerKey(
    sheet="demo-0001",
    dataset="demo",
    judge="smoke",
    seed=0,
    graders=["asha", "ravi"],
    metrics={"coherence": {"min": 0, "max": 2}},
    answers={
        "a1": {"question_id": "q1", "model": "alpha"},
        "a2": {"question_id": "q1", "model": "beta"},
    },
)


def _blind(
    rater: str, answer: str, score: float, changed: dict[str, object] | None = None
) -> dict[str, object]:
    row = BlindGrade(
        sheet="demo-0001",
        rater=rater,
        question_id="q1",
        answer_id=answer,
        metric="coherence",
        score=score,
        scale_min=0,
        scale_max=2,
        language="ur",
        graded_at="2026-12-05T10:00:00.000Z",
    ).model_dump()
    return row | (changed or {})


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write_json(key_path(tmp_path, KEY.sheet), KEY.model_dump(mode="json"))
    write_jsonl(tmp_path / "asha.jsonl", [_blind("asha", "a1", 2), _blind("asha", "a2", 0)])
    write_jsonl(tmp_path / "ravi.jsonl", [_blind("ravi", "a1", 1)])
    return tmp_path


def test_a_folder_of_blind_grades_joins_every_answer_to_its_model(folder: Path) -> None:
    grades, lines = read_human_grades(folder)
    assert [(g.rater, g.model, g.score) for g in grades] == [
        ("asha", "alpha", 2),
        ("asha", "beta", 0),
        ("ravi", "alpha", 1),
    ]
    assert lines == [1, 2, 1]
    assert grades[0] == HumanGrade(
        question_id="q1",
        model="alpha",
        metric="coherence",
        score=2,
        scale_min=0,
        scale_max=2,
        rater="asha",
        language="ur",
    )


def test_model_grades_read_as_before(tmp_path: Path) -> None:
    grade = HumanGrade(question_id="q1", model="alpha", metric="coherence", score=1)
    write_jsonl(tmp_path / "human.jsonl", [grade])
    assert read_human_grades(tmp_path / "human.jsonl") == ([grade], [1])


@pytest.mark.parametrize(
    ("changed", "field", "message"),
    [
        ({"answer_id": "a9"}, "answer_id", "unknown answer id 'a9'"),
        ({"score": 3}, "score", "off the sheet's 0..2 scale"),
        ({"metric": "conciseness"}, "metric", "grades coherence, not 'conciseness'"),
        ({"question_id": "q2"}, "question_id", "answers question 'q1', not 'q2'"),
        ({"sheet": "other"}, "sheet", "no answer key"),
        ({"rater": ""}, "rater", "at least 1 character"),
    ],
)
def test_a_bad_row_is_named_by_file_line_and_field(
    folder: Path, changed: dict[str, object], field: str, message: str
) -> None:
    write_jsonl(folder / "ravi.jsonl", [_blind("ravi", "a1", 1), _blind("ravi", "a2", 1, changed)])
    with pytest.raises(InputError, match=message) as caught:
        read_human_grades(folder)
    error = caught.value
    assert (error.path, error.line, error.field) == (str(folder / "ravi.jsonl"), 2, field)


def test_an_empty_folder_and_a_bad_key_are_errors(folder: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="no grades files"):
        read_human_grades(empty)
    key = json.loads(key_path(folder, KEY.sheet).read_text())
    del key["answers"]["a1"]["model"]
    write_json(key_path(folder, KEY.sheet), key)
    with pytest.raises(InputError, match=r"demo-0001\.key\.json, field 'answers\.a1\.model'"):
        read_human_grades(folder)
