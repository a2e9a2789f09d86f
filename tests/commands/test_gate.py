"""`parakh gate` on what aggregate wrote: exit 1 naming each failed gate, model, language and
its figures; 0 when every check passes; 2 without gates.json or without gates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.config import compose
from parakh.report.files import ReportFiles
from parakh.stages import aggregate
from tests.commands.cli import run_cli
from tests.report.synthetic_project import make_project

FLOOR = "{name: fc-floor, metric: factual_correctness, languages: [hi], min: 1.99}"
ANY = "{name: any-score, metric: factual_correctness, min: 0.0}"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "project", ["alpha", "beta"])
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    return root


def _aggregate(gates: str) -> ReportFiles:
    cfg = compose(
        ["tracking.enabled=false", "aggregate.answers_page=false", f"aggregate.gates={gates}"]
    )
    aggregate.main_task(cfg)
    return ReportFiles(aggregate.Layout.of(cfg).reports)


def test_a_failing_bound_exits_1_naming_gate_model_language_and_figures(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _aggregate(f"[{ANY},{FLOOR}]")
    code, out, err = run_cli(["gate", "demo", "judge=smoke"], capsys)
    assert code == 1
    lines = out.splitlines()
    assert [line.split(":")[0:2] for line in lines] == [
        ["FAIL gate fc-floor", " model alpha, language hi"],
        ["FAIL gate fc-floor", " model beta, language hi"],
    ]
    assert "factual_correctness mean " in lines[0] and "< min 1.99" in lines[0]
    assert "n=" in lines[0] and "[" in lines[0]  # the interval
    assert "2 of 10 checks failed" in err  # any-score: 2 models x (all, en, hi, ta); floor: 2
    metrics = json.loads(files.metrics_json.read_text(encoding="utf-8"))
    assert metrics["gates"]["fc-floor"] == {"alpha": {"hi": 0}, "beta": {"hi": 0}}
    assert metrics["gates"]["any-score"]["beta"]["all"] == 1
    assert 'id="gates"' in files.report_html.read_text(encoding="utf-8")
    assert "## Release gates" in files.leaderboard_md.read_text(encoding="utf-8")


def test_a_passing_run_exits_0(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = _aggregate(f"[{ANY}]")
    code, out, _ = run_cli(["gate", "--report", str(files.root)], capsys)
    assert (code, out) == (0, f"gate: all 8 checks passed ({files.gates_json})\n")
    assert run_cli(["gate", "--report", str(files.gates_json)], capsys)[0] == 0


def test_no_gates_or_no_gates_json_exits_2(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(["gate"], capsys)  # the default dataset and judge, not aggregated
    assert code == 2 and "gates.json: run aggregate first" in err
    files = _aggregate("[]")
    code, _, err = run_cli(["gate", "demo"], capsys)
    assert code == 2 and "no gate configured (aggregate.gates)" in err
    assert json.loads(files.gates_json.read_text(encoding="utf-8"))["checks"] == []
    assert "gates" not in json.loads(files.metrics_json.read_text(encoding="utf-8"))


def test_a_partial_run_fails_the_gate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check = {"gate": "g", "model": "m", "language": "all", "metric": "x", "passed": True}
    document = {"passed": False, "partial": "Partial run: 3 of 4", "checks": [check]}
    path = tmp_path / "gates.json"
    path.write_text(json.dumps({**document, "checks": [{**check, "text": "", "figures": {}}]}))
    code, out, _ = run_cli(["gate", "--report", str(path)], capsys)
    assert code == 1 and "FAIL partial run (Partial run: 3 of 4)" in out


def test_report_and_dataset_together_are_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(["gate", "demo", "--report", str(tmp_path)], capsys)
    assert code != 0 and "either --report or a dataset" in err
    code, _, err = run_cli(["gate", "demo", "model=x"], capsys)
    assert code != 0 and "this command takes judge=" in err
