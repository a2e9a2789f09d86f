"""The grading sheet in headless Chromium (as tests/report/test_browser.py, which see for the
binary): five answers graded by keyboard, kept across a reload, downloaded as a grades file with
no model name in it; that file, with a second grader's beside it, gives aggregate's judge-human
and inter-grader agreement. Skips cleanly when no Chromium binary is installed."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from tests.commands.cli import run_cli
from tests.report.grading_project import make_grading_project
from tests.report.synthetic_project import MODELS
from tests.report.test_browser import FLAGS, chromium  # noqa: F401 (the fixture)
from tests.support.cdp import Browser

from parakh.config import compose
from parakh.io import write_jsonl
from parakh.schema import BlindGrade
from parakh.stages import aggregate

pytestmark = pytest.mark.slow

GRADED = [("2", "1"), ("0", "0"), ("1", "2"), ("2", "2"), ("1", "1")]  # two metrics each
PROGRESS = "document.getElementById('progress').textContent"
SHOWN = "document.querySelector('article.answer:not([hidden])').getAttribute('data-answer')"


def grade_by_keyboard(browser: Browser, answers: int = len(GRADED)) -> list[str]:
    """Grade `answers` answers (five at most); a detour by the arrows on the way. The answers
    graded, in order."""
    graded = []
    for k, scores in enumerate(GRADED[:answers]):
        graded.append(browser.evaluate(SHOWN))
        for digit in scores:
            browser.press(digit)
        if k == 1:  # back to the last answer graded and forward again: nothing changes
            browser.press("ArrowLeft")
            assert browser.evaluate(SHOWN) == graded[-1]
            browser.press("ArrowDown")
            browser.press("ArrowRight")
    return graded


def download(browser: Browser, folder: Path) -> Path:
    browser.allow_downloads(folder)
    browser.evaluate("document.getElementById('download').click()")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        done = [p for p in folder.glob("*.jsonl")]  # Chromium writes *.crdownload first
        if done:
            return done[0]
        time.sleep(0.1)
    raise TimeoutError("no download")


def test_grade_reload_download_then_aggregate(
    chromium: str,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = make_grading_project(tmp_path / "project")
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    options = ["--graders", "asha,ravi", "--metrics", "factual_correctness,coherence"]
    code, _, err = run_cli(["grading-sheet", "demo", *options, "--per-language", "3"], capsys)
    assert code == 0, err
    folder = root / "grading" / "demo"
    (page,) = folder.glob("*-asha.html")

    browser = Browser(chromium, tmp_path / "profile", FLAGS)
    try:
        browser.open(page)
        assert browser.evaluate(PROGRESS) == "0 of 27 answers graded"
        graded = grade_by_keyboard(browser)
        assert browser.evaluate(PROGRESS) == "5 of 27 answers graded"
        sixth = browser.evaluate(SHOWN)
        browser.reload()
        assert browser.evaluate(PROGRESS) == "5 of 27 answers graded"
        assert browser.evaluate(SHOWN) == sixth  # where the grader was
        browser.press("ArrowLeft")
        chosen = (
            "[].map.call(document.querySelectorAll('.levels > li.chosen'), l => l.dataset.score)"
        )
        assert browser.evaluate(chosen) == list(GRADED[-1])
        urdu = "getComputedStyle(document.querySelector('[lang=ur]')).direction"
        assert browser.evaluate(urdu) == "rtl"
        assert browser.evaluate("document.body.getAttribute('data-rendered')") == "ok"
        downloaded = download(browser, tmp_path / "downloads")
    finally:
        browser.close()

    text = downloaded.read_text(encoding="utf-8")
    assert not re.search("|".join(MODELS), text, re.IGNORECASE)  # blind until aggregate joins
    rows = [BlindGrade.model_validate_json(line) for line in text.splitlines()]
    assert [r.answer_id for r in rows[::2]] == graded and {r.rater for r in rows} == {"asha"}
    assert [(r.metric, r.score) for r in rows[:2]] == [("factual_correctness", 2), ("coherence", 1)]
    assert downloaded.name == f"{rows[0].sheet}-asha.grades.jsonl"

    # a second grader agrees on four of the five answers' factual correctness
    ravi = [r.model_copy(update={"rater": "ravi"}) for r in rows]
    ravi[0] = ravi[0].model_copy(update={"score": 0.0})
    write_jsonl(folder / "ravi.grades.jsonl", ravi)
    downloaded.rename(folder / downloaded.name)
    cfg = compose(["tracking.enabled=false", "aggregate.agreement.human_grades=grading/demo"])
    aggregate.main_task(cfg)
    report = root / "reports" / "demo" / "smoke"
    document = json.loads((report / "leaderboard.json").read_text(encoding="utf-8"))
    by_metric = {a["metric"]: a for a in document["agreement"]}
    assert sorted(by_metric) == ["coherence", "factual_correctness"]
    fc = by_metric["factual_correctness"]
    assert fc["human_grades"] == 10 and fc["overall"]["n_pairs"] > 0
    assert fc["inter_grader"]["graders"] == ["asha", "ravi"]
    assert fc["inter_grader"]["percent_agreement"] == pytest.approx(80.0)
    assert by_metric["coherence"]["inter_grader"]["percent_agreement"] == pytest.approx(100.0)
    html = (report / "report.html").read_text(encoding="utf-8")
    assert "Judge-human agreement" in html and "Inter-grader agreement" in html
