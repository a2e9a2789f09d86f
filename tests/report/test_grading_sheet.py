"""Grading sheets: every text marked with its language and direction (Urdu right to left), the
answers blind and in a seeded order per grader, and the key that unblinds them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.commands.cli import run_cli
from tests.report.grading_project import URDU_CHUNK, URDU_QUESTION, make_grading_project
from tests.report.synthetic_project import MODELS

from parakh.errors import ConfigError
from parakh.metrics.rubric import load_rubric
from parakh.report.grades_file import read_key
from parakh.report.grading_sheet import grader_order, marked, sheet_metrics


@pytest.mark.parametrize(
    ("text", "language", "script", "expected"),
    [
        (URDU_QUESTION, "ur", "Arabic", ("ur", "rtl")),
        (URDU_QUESTION, None, None, ("ur", "rtl")),  # detected
        ("mujhe dawa kab daalni hai", "hi", "Latin", ("hi-Latn", "ltr")),
        ("சொட்டு மருந்து எப்போது?", "ta", "Tamil", ("ta", "ltr")),
        ("4 - 2 = 2", None, None, ("und", "auto")),
    ],
)
def test_texts_are_marked_with_language_and_direction(
    text: str, language: str | None, script: str | None, expected: tuple[str, str]
) -> None:
    found = marked(text, language, script)
    assert (found.lang, found.dir) == expected


@pytest.fixture
def sheets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Path:
    root = make_grading_project(tmp_path / "project")
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    args = ["grading-sheet", "demo", "--graders", "asha,ravi", "--per-language", "2"]
    code, out, err = run_cli([*args, "--metrics", "factual_correctness,coherence"], capsys)
    assert code == 0, err
    assert "18 answers" in out  # 2 questions x 3 languages x 3 models
    return root / "grading" / "demo"


def test_the_key_holds_every_answer_and_the_pages_none_of_the_models(sheets: Path) -> None:
    (key_file,) = sheets.glob("*.key.json")
    key = read_key(key_file)
    assert key_file.name == f"{key.sheet}.key.json" and key.graders == ["asha", "ravi"]
    assert sorted({a.model for a in key.answers.values()}) == MODELS
    assert len({(a.question_id, a.model) for a in key.answers.values()}) == 18
    assert sorted(key.metrics) == ["coherence", "factual_correctness"]
    for grader in ("asha", "ravi"):
        page = (sheets / f"{key.sheet}-{grader}.html").read_text(encoding="utf-8")
        assert not re.search("|".join(MODELS), page, re.IGNORECASE)
        assert "<script>x()" not in page and "&lt;script&gt;x()" in page  # escaped
        shown = re.findall(r'data-answer="(a\d+)"', page)
        assert shown == grader_order(key, grader)


def test_urdu_reads_right_to_left_and_every_text_is_marked(sheets: Path) -> None:
    (page,) = [p for p in sheets.glob("*-asha.html")]
    html = page.read_text(encoding="utf-8")
    assert f'<p lang="ur" dir="rtl" class="question">{URDU_QUESTION}</p>' in html
    assert '<blockquote lang="ur" dir="rtl"><small dir="ltr" lang="en">KB update' in html
    assert f"{URDU_CHUNK}</blockquote>" in html
    assert re.search(r'<div lang="hi" dir="ltr" class="response">दिन', html)
    elements = re.findall(r"<(?:p|div|blockquote)\b[^>]*>", html)
    texts = [e for e in elements if re.search(r'blockquote|class="(question|reference|resp)', e)]
    assert len(texts) == 18 * 5  # question, reference, two chunks, answer
    assert all(re.search(r'lang="[^"]+" dir="(ltr|rtl)"', t) for t in texts)


def test_each_grader_has_an_order_of_their_own_fixed_by_the_seed(sheets: Path) -> None:
    (key_file,) = sheets.glob("*.key.json")
    key = read_key(key_file)
    asha, ravi = grader_order(key, "asha"), grader_order(key, "ravi")
    assert sorted(asha) == sorted(ravi) == sorted(key.answers) and asha != ravi
    assert grader_order(key, "asha") == asha
    assert grader_order(key.model_copy(update={"seed": 1}), "asha") != asha


def test_a_rerun_writes_the_same_sheet_and_another_seed_another(
    sheets: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p.name: p.read_bytes() for p in sheets.iterdir()}
    options = ["--graders", "asha,ravi", "--per-language", "2"]
    options += ["--metrics", "factual_correctness,coherence"]
    assert run_cli(["grading-sheet", "demo", *options], capsys)[0] == 0
    assert {p.name: p.read_bytes() for p in sheets.iterdir()} == before
    # a Hydra override may come before or after the options
    assert run_cli(["grading-sheet", "demo", *options, "seed=1"], capsys)[0] == 0
    assert len(list(sheets.glob("*.key.json"))) == 2
    assert run_cli(["grading-sheet", "demo", "seed=1", *options], capsys)[0] == 0
    assert len(list(sheets.glob("*.key.json"))) == 2
    code, _, err = run_cli(["grading-sheet", "demo", *options, "--bogus", "x"], capsys)
    assert code == 2 and "unrecognized arguments: --bogus x" in err


def test_metrics_are_rubric_criteria_digits_can_grade() -> None:
    rubrics = [load_rubric("coherence"), load_rubric("factual_correctness")]
    assert [m.name for m in sheet_metrics(rubrics, None)] == ["coherence", "factual_correctness"]
    (coherence,) = sheet_metrics(rubrics, ["coherence"])
    assert (coherence.min, coherence.max, [s for s, _ in coherence.levels]) == (0, 2, [0, 1, 2])
    assert len(coherence.levels[0][1]) == 3  # the level's criteria, in order
    with pytest.raises(ConfigError, match="Unknown rubric metric 'coherense'. Did you mean"):
        sheet_metrics(rubrics, ["coherense"])
    wide = rubrics[0].model_copy(update={"scale": rubrics[0].scale.model_copy(update={"max": 10})})
    with pytest.raises(ConfigError, match="digit keys grade 0..9 only"):
        sheet_metrics([wide], None)


def test_bad_graders_are_refused(sheets: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["grading-sheet", "demo", "--graders", "asha,asha"], capsys)
    assert code != 0 and "distinct ids" in err
    code, out, _ = run_cli(["grading-sheet", "--help"], capsys)
    assert code == 0 and "--per-language" in out and "--graders" in out
