"""What curate dropped, per reason, is in every leaderboard's header (md, json, html), read from
the curation report beside the curated questions; without a curation report the header says
nothing of it (the synthetic project's byte-identical files, test_columnar_identity)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.report.synthetic_project import make_project

from parakh.config import compose
from parakh.errors import InputError
from parakh.report.curation_summary import CurationSummary
from parakh.stages import aggregate

REPORT = {
    "dataset": "demo",
    "rows_in": 212,
    "rows_out": 190,
    "dropped": {"duplicate_text": 11, "over_limit": 0, "no_prompt": 2, "over_per_language": 9},
    "quarantined": 2,
}
LINE = (
    "212 rows in, 190 kept; dropped: duplicate_text 11, no_prompt 2, over_per_language 9 "
    "(2 of them quarantined)"
)


def test_the_line_lists_every_reason_with_rows(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text(json.dumps(REPORT), encoding="utf-8")
    summary = CurationSummary.read(path)
    assert summary is not None and summary.text() == LINE
    assert summary.document() == {
        "rows_in": 212,
        "rows_out": 190,
        "dropped": {"duplicate_text": 11, "no_prompt": 2, "over_per_language": 9},
        "quarantined": 2,
    }
    whole = CurationSummary(rows_in=1190, rows_out=1190)
    assert whole.text() == "1,190 rows in, 1,190 kept; none dropped"
    assert CurationSummary.read(tmp_path / "absent.json") is None


def test_a_report_without_its_counts_is_an_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"rows_in": 3}), encoding="utf-8")
    with pytest.raises(InputError, match="report.json"):
        CurationSummary.read(path)


def test_the_leaderboard_header_lists_what_curate_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_project(tmp_path / "project")
    curate = root / "data" / "processed" / "demo" / "curate"
    (curate / "report.json").write_text(json.dumps(REPORT), encoding="utf-8")
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    aggregate.main_task(compose(["tracking.enabled=false"]))
    reports = root / "reports" / "demo" / "smoke"
    markdown = (reports / "leaderboard.md").read_text(encoding="utf-8")
    header = markdown.split("## Overall")[0]
    assert f"Curated questions: {LINE}." in header
    board = json.loads((reports / "leaderboard.json").read_text(encoding="utf-8"))
    assert board["curation"]["dropped"] == {
        "duplicate_text": 11,
        "no_prompt": 2,
        "over_per_language": 9,
    }
    html = (reports / "report.html").read_text(encoding="utf-8")
    assert f'<p class="note" id="curation">Curated questions: {LINE}.</p>' in html
