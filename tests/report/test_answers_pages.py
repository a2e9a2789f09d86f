"""The side-by-side answers page at any size (#19 item 4): a run whose page fits under the cap
writes the one page it always wrote, byte for byte (tests/report/fixtures/answers/, captured
before pages were split); a larger run writes an index, `answers.html`, and pages by language
under `answers/`, each under the cap, every answer on exactly one of them, every page linked.

Re-capture (only when a change to the page is intended, and say so in the commit):

    PYTHONPATH=. python tests/report/test_answers_pages.py --capture
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from parakh.report import answers_page as answers  # a module, as --capture reads it
from parakh.report.answer_scores import TEXTS, AnswerScores
from parakh.report.columns import JudgeColumns
from parakh.report.files import ReportFiles
from parakh.report.row_files import STATS_COLUMNS, JudgeFile
from parakh.schema import Generation, Judgment, Question

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "answers"
LANGUAGES = ("en", "hi", "ta")
MODELS = ["alpha", "beta", "gamma"]  # gamma has no answers file
TITLE = "Side-by-side answers: demo, judge smoke"
SAYS = {
    "en": "Use the drops four times a day <b>for a month</b> & rest.",
    "hi": "एक महीने तक दिन में चार बार दवा डालें।",
    "ta": "ஒரு மாதம் நாளுக்கு நான்கு முறை சொட்டு மருந்து போடவும்.",
}


def questions(n: int) -> list[Question]:
    return [
        Question(
            id=f"q{i:04d}",
            text=f"Question {i} <script>alert({i})</script>?",
            language=LANGUAGES[i % 3],
            categories=[["kb-update"], ["code-mixed", "romanized"], []][i % 3],
            domain="cataract" if i % 2 else None,
            reference_answers=[SAYS[LANGUAGES[i % 3]]] if i % 5 else [],
        )
        for i in range(n)
    ]


def generations(n: int, model: str, words: int = 1) -> list[Generation]:
    rows = []
    for q in questions(n):
        if model == "beta" and q.id.endswith("3"):
            rows.append(Generation(question_id=q.id, model=model, status="error", error="HTTP 500"))
        elif not (model == "beta" and q.id.endswith("7")):  # beta's answer to ...7 is not there
            text = " ".join([SAYS[q.language]] * words)
            rows.append(Generation(question_id=q.id, model=model, status="ok", response=text))
    return rows


def judgments(n: int, models: list[str]) -> list[Judgment]:
    rows = []
    for k, model in enumerate(models):
        for i, q in enumerate(questions(n)):
            base = {"question_id": q.id, "model": model, "judge": "smoke", "language": q.language}
            base["categories"] = q.categories
            u = (i * 7 + k * 3) % 10
            chrf = {**base, "metric": "chrf", "scale_max": 100.0}
            coherence = {**base, "metric": "coherence", "scale_max": 2.0}
            rows.append(Judgment(**chrf, status="ok", score=u * 9.5))
            if u < 7:
                why = f"because <{u}>"
                rows.append(Judgment(**coherence, status="ok", score=u % 3, justification=why))
            else:
                status = "skipped" if u < 9 else "invalid"
                rows.append(Judgment(**coherence, status=status, reason="not sampled"))
            if model == "alpha" and i % 4 == 0:  # alpha via a translator: a system of its own
                rows.append(Judgment(**chrf, status="ok", score=50.0, translator="nllb"))
    return rows


def answer_scores(rows: list[Judgment]) -> AnswerScores:
    read = JudgeFile.of_rows(rows)
    return AnswerScores(JudgeColumns.of_table(read.columns(STATS_COLUMNS)), read.columns(TEXTS))


def inputs(n: int, words: int = 1, models: list[str] = MODELS) -> dict:
    return {
        "questions": questions(n),
        "generations": {m: generations(n, m, words) for m in models if m != "gamma"},
        "judgments": answer_scores(judgments(n, models)),
        "models": models,
    }


CASES = {  # fixture name -> (inputs, partial banner)
    "small": (lambda: inputs(24), None),
    "partial": (lambda: inputs(20, models=MODELS[:2]), "Partial run: 180 of 192 rows"),
}


def _write(folder: Path, given: dict, **options) -> list[Path]:
    return answers.write_answers(
        ReportFiles(folder),
        given["questions"],
        given["generations"],
        given["judgments"],
        given["models"],
        title=TITLE,
        **options,
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_page_under_the_cap_is_the_page_written_before(tmp_path: Path, name: str) -> None:
    expected = (FIXTURES / f"{name}.html").read_bytes()
    make, partial = CASES[name]
    written = _write(tmp_path, make(), partial=partial)
    files = ReportFiles(tmp_path)
    assert written == [files.answers_html]
    assert files.answers_html.read_bytes() == expected
    assert files.answer_pages() == []  # the folder dvc.yaml declares is there, without pages
    note = (files.answers_pages / answers.FOLDER_NOTE).read_text(encoding="utf-8")
    assert "answers.html holds every answer" in note  # and not empty: DVC warns on an empty out


def _links(page: Path) -> list[str]:
    return re.findall(r'href="([^"#]+)"', page.read_text(encoding="utf-8"))


def _question_ids(page: Path) -> list[str]:
    return re.findall(r'<article class="q"[^>]*><header><b>(q\d+)</b>', page.read_text("utf-8"))


def test_a_page_over_the_cap_is_split_by_language_into_pages_under_it(tmp_path: Path) -> None:
    n, cap = 300, 60_000
    given = inputs(n, words=4)
    _write(tmp_path / "whole", given, max_bytes=10**9)
    assert ReportFiles(tmp_path / "whole").answers_html.stat().st_size > 5 * cap
    written = _write(tmp_path, given, max_bytes=cap)
    files = ReportFiles(tmp_path)
    pages = files.answer_pages()
    assert written == [*pages, files.answers_html] and len(pages) >= 6
    assert all(p.stat().st_size <= cap for p in written), [p.stat().st_size for p in written]
    # the index links every page, in order, and nothing else of the folder
    linked = [tmp_path / link for link in _links(files.answers_html)]
    assert linked == pages
    seen: list[str] = []
    for page in pages:
        language = page.name.split("-")[0]
        ids = _question_ids(page)
        assert ids and all(q.language == language for q in given["questions"] if q.id in ids)
        seen += ids
        assert "../answers.html" in _links(page)  # back to the index
        text = page.read_text(encoding="utf-8")
        assert text.count('<article class="q"') == len(ids)
        assert "<script>alert(" not in text and 'id="f-category"' in text
    assert sorted(seen) == sorted(q.id for q in given["questions"])
    assert len(seen) == len(set(seen)) == n


def test_pages_link_to_their_neighbours(tmp_path: Path) -> None:
    _write(tmp_path, inputs(300, words=4), max_bytes=60_000)
    pages = ReportFiles(tmp_path).answer_pages()
    hindi = [p for p in pages if p.name.startswith("hi-")]
    assert len(hindi) >= 2
    assert f'href="{hindi[1].name}"' in hindi[0].read_text(encoding="utf-8")
    assert f'href="{hindi[0].name}"' in hindi[1].read_text(encoding="utf-8")
    assert f'href="{hindi[-1].name}"' not in hindi[-1].read_text(encoding="utf-8")


def test_pages_of_an_earlier_run_are_removed(tmp_path: Path) -> None:
    files = ReportFiles(tmp_path)
    _write(tmp_path, inputs(300, words=4), max_bytes=60_000)
    assert files.answer_pages()
    _write(tmp_path, inputs(24))
    assert files.answer_pages() == [] and files.answers_pages.is_dir()
    assert files.answers_html.read_bytes() == (FIXTURES / "small.html").read_bytes()


def test_an_answer_larger_than_the_cap_gets_a_page_of_its_own(tmp_path: Path) -> None:
    given = inputs(9, words=1)
    given["generations"]["alpha"][4] = given["generations"]["alpha"][4].model_copy(
        update={"response": "x" * 50_000}
    )
    _write(tmp_path, given, max_bytes=30_000)
    pages = ReportFiles(tmp_path).answer_pages()
    alone = [p for p in pages if _question_ids(p) == ["q0004"]]
    assert alone and alone[0].stat().st_size > 30_000
    assert all(p.stat().st_size <= 30_000 for p in pages if p not in alone)


def test_the_cap_is_about_20_mb() -> None:
    assert 19_000_000 <= answers.MAX_PAGE_BYTES <= 21_000_000


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if found := shutil.which(name):
            return found
    pytest.skip("no Chromium binary found (apt-get install -y chromium)")


@pytest.mark.slow
def test_the_index_and_a_page_render_in_a_browser(tmp_path: Path) -> None:
    binary = _chromium()
    _write(tmp_path, inputs(300, words=4), max_bytes=60_000)
    files = ReportFiles(tmp_path)
    page = files.answer_pages()[0]
    for shown, count in ((files.answers_html, None), (page, len(_question_ids(page)))):
        out = subprocess.run(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0",
             "--dump-dom", shown.resolve().as_uri()],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr[-2000:]
        assert not [line for line in out.stderr.splitlines() if "Uncaught" in line]
        assert re.search(r'<body[^>]*data-rendered="ok"', out.stdout)
        if count is not None:
            assert re.search(rf'id="f-count"[^>]*>{count} of {count} questions<', out.stdout)


if __name__ == "__main__":
    if sys.argv[1:] != ["--capture"]:
        sys.exit(__doc__)
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for fixture, (make, partial) in CASES.items():
        with tempfile.TemporaryDirectory() as folder:
            _write(Path(folder), make(), partial=partial)
            shutil.copyfile(ReportFiles(Path(folder)).answers_html, FIXTURES / f"{fixture}.html")
    print(f"captured {', '.join(CASES)} -> {FIXTURES}")
