"""Text from the data (questions, answers, model names, justifications, categories) reaches the
pages escaped by the template engine: no tag, quote or ampersand of it is markup, on the report,
the answers page and the pages of a split answers page."""

from __future__ import annotations

from pathlib import Path

import yaml
from markupsafe import escape
from tests.report import synthetic_project as synth

from parakh.config import compose
from parakh.report import answers_page as answers
from parakh.report.aggregate_result import compute, write_reports
from parakh.report.files import ReportFiles
from parakh.report.inputs import AggregateInputs

BAD = "<script>alert('x&y')</script> \"zq\""
MODELS = ["alpha", f"beta {BAD}"]


def _inputs() -> AggregateInputs:
    judgments, generations = {}, {}
    for model, source in zip(MODELS, synth.MODELS, strict=False):
        rows = [
            r.model_copy(update={"model": model, "justification": f"why {BAD}"})
            if r.justification
            else r.model_copy(update={"model": model})
            for r in synth.judgments(source)
        ]
        judgments[model] = rows
        generations[model] = [
            g.model_copy(update={"model": model, "response": f"answer {BAD}"})
            for g in synth.generations(source)
        ]
    questions = [
        q.model_copy(update={"text": f"question {BAD}", "categories": [f"cat {BAD}"]})
        for q in synth.questions()
    ]
    return AggregateInputs(
        judge="smoke",
        models=MODELS,
        judgments=judgments,
        questions=questions,
        generations=generations,
    )


def _assert_escaped(page: str, *texts: str) -> None:
    assert page.count("<script>") == 2  # the page's own two scripts, none from the data
    assert BAD not in page and "alert('x&y')" not in page and '"zq"' not in page
    for text in texts:
        assert str(escape(text)) in page, text


def test_report_and_answers_page_escape_the_data(tmp_path: Path) -> None:
    cfg = compose(["aggregate.statistics.bootstrap_resamples=100"])
    inputs = _inputs()
    files = ReportFiles(tmp_path)
    write_reports(cfg, compute(cfg, inputs), inputs, files, provenance={"note": BAD})
    report = files.report_html.read_text(encoding="utf-8")
    provenance = yaml.safe_dump({"note": BAD}, allow_unicode=True)  # the config section's YAML
    _assert_escaped(report, MODELS[1], provenance)
    assert f"<td>{escape(MODELS[1])}</td>" in report  # the leaderboard's row
    page = files.answers_html.read_text(encoding="utf-8")
    for text in (f"question {BAD}", f"answer {BAD}", f"why {BAD}", MODELS[1], f"cat {BAD}"):
        _assert_escaped(page, text)
    assert f"<h4>{escape(MODELS[1])}</h4>" in page
    assert 'data-categories="[&#34;cat &lt;script&gt;' in page  # JSON in an attribute


def test_split_answers_pages_escape_the_data(tmp_path: Path) -> None:
    inputs = _inputs()
    files = ReportFiles(tmp_path)
    written = answers.write_answers(
        files, inputs.questions, inputs.generations, inputs.answer_scores(), MODELS,
        title=f"t {BAD}", partial=f"partial {BAD}", max_bytes=20_000,
    )  # fmt: skip
    assert len(written) > 2 and written[-1] == files.answers_html
    _assert_escaped(files.answers_html.read_text(encoding="utf-8"), f"t {BAD}", f"partial {BAD}")
    for page in written[:-1]:
        _assert_escaped(page.read_text(encoding="utf-8"), f"answer {BAD}", f"why {BAD}")
