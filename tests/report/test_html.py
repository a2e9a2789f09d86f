"""The HTML report and the side-by-side answers page: content, escaping, self-containment."""

from __future__ import annotations

import html
import json
import re

from tests.report import synthetic_project as synth
from tests.report.judge_columns import judge_columns

from parakh.report.files import ReportFiles


def test_report_has_every_section(written_report: ReportFiles) -> None:
    page = written_report.report_html.read_text(encoding="utf-8")
    for anchor in (
        'id="leaderboard"',
        'id="heatmap"',
        'id="category-bars"',
        'id="category-table"',
        'id="domain-table"',
        'id="translate-test"',
        'id="paired"',
        'id="agreement"',
        'id="counts"',
        'id="config"',
    ):
        assert anchor in page, anchor
    assert "Smoke-test judge" in page and "abc123" in page and "bootstrap_resamples: 200" in page
    leaderboard = page.split('id="leaderboard"')[1].split("</table>")[0]
    assert leaderboard.count("<tr>") == 1 + len(synth.MODELS)


def test_report_is_self_contained(written_report: ReportFiles) -> None:
    page = written_report.report_html.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']https?://""", page)
    assert "<link" not in page


def test_rewriting_gives_identical_bytes(
    written_report: ReportFiles, write_report, tmp_path
) -> None:
    again = write_report(tmp_path)
    names = [p.relative_to(written_report.root) for p in sorted(written_report.root.rglob("*.*"))]
    assert len(names) == 13  # 4 leaderboards, 2 pages, 3 PNGs, 2 plot data, answers/ note, gates
    for name in names:
        assert (again.root / name).read_bytes() == (written_report.root / name).read_bytes(), name


def test_answers_page_lists_every_question_with_answers_and_scores(
    written_report: ReportFiles,
) -> None:
    page = written_report.answers_html.read_text(encoding="utf-8")
    assert page.count('<article class="q"') == synth.N_QUESTIONS
    assert "alpha answers q00 &lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)</script>" not in page
    assert "Question 0 &lt;b&gt;about&lt;/b&gt; eye drops?" in page
    assert "Reference answer 0." in page
    assert "no answers file for this model" in page  # gamma has no generations file
    assert "because" in page and "judge call failed: timeout" in page
    for control in ("f-language", "f-category", "f-metric", "f-min", "f-max"):
        assert f'id="{control}"' in page
    q00 = page.split('<article class="q"')[1]
    scores = json.loads(
        html.unescape(re.search(r'data-scores="([^"]*)"', q00).group(1))  # type: ignore[union-attr]
    )
    assert 0.0 <= scores["chrf"]["alpha"] <= 1.0


def test_translate_test_entries_get_their_own_comparison_table() -> None:
    from parakh.report.html import translate_test_section
    from parakh.report.leaderboard import build_leaderboard

    direct = synth.judgments("alpha")
    via = [
        r.model_copy(update={"model": "alpha", "translator": "nllb"})
        for r in synth.judgments("beta")
    ]
    board = build_leaderboard(judge_columns(direct + via), ["alpha"], {"factual_correctness": 1.0})
    html = translate_test_section(board, "chrf")
    assert '<table id="translate-test">' in html
    assert "nllb" in html and "(p=" in html
    alone = build_leaderboard(judge_columns(direct), ["alpha"], {"factual_correctness": 1.0})
    assert "All rows are direct inference" in translate_test_section(alone, "chrf")
