"""The curate stage end to end, in a temporary project: demo unchanged, real CataractBot labels,
PII never reaching data/processed/, the report, and the optional MLflow run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tests.conftest import REPO
from tests.curation.curate_project import (
    make_project,
    output_files,
    run_curate,
    write_dataset_config,
    write_files,
)

from parakh.io import read_jsonl
from parakh.schema import Question


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = make_project(tmp_path / "project")
    shutil.copytree(REPO / "data" / "raw" / "demo", root / "data" / "raw" / "demo")
    return root


def _curated(root: Path, dataset: str) -> list[Question]:
    return read_jsonl(root / "data/processed" / dataset / "curate/questions.jsonl", Question)


def _report(root: Path, dataset: str) -> dict[str, object]:
    path = root / "data/processed" / dataset / "curate/report.json"
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_demo_questions_come_through_unchanged_and_reproducibly(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run_curate(project, ["dataset=demo"], monkeypatch, capsys)
    assert result.code == 0, result.err
    assert "curate: 80 of 80 questions kept" in result.out
    raw = [json.loads(line) for line in (REPO / "data/raw/demo/questions.jsonl").open()]
    curated = _curated(project, "demo")
    assert [(q.id, q.text, q.language, q.categories) for q in curated] == [
        (r["id"], r["text"], r["language"], r["categories"]) for r in raw
    ]
    # The helpline in the expert answers is on the demo's keep list: answers are unchanged.
    assert [q.reference_answers for q in curated] == [[r["reference_answer"]] for r in raw]
    assert all(q.label_source["language"] == "dataset" for q in curated)
    first = {p.name: p.read_bytes() for p in output_files(project)}
    assert run_curate(project, ["dataset=demo"], monkeypatch, capsys).code == 0
    assert {p.name: p.read_bytes() for p in output_files(project)} == first
    report = _report(project, "demo")
    assert report["rows_in"] == report["rows_out"] == 80 and report["dropped"] == {}
    assert report["kb_documents"] == {"raw": 8, "update": 17}


def test_language_filter_and_limit_are_reported(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    overrides = ["dataset=demo", "++dataset.languages=[Hindi,kn]", "dataset.limit=25"]
    assert run_curate(project, overrides, monkeypatch, capsys).code == 0
    report = _report(project, "demo")
    assert report["dropped"] == {"language_not_selected": 50, "over_limit": 5}
    assert report["rows_out"] == 25 and set(report["languages"]) == {"hi", "kn"}  # type: ignore[arg-type]


def test_per_language_slice_keeps_every_language_chosen_by_seed(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_curate(project, ["dataset=demo"], monkeypatch, capsys).code == 0
    everything = _report(project, "demo")["languages"]
    assert isinstance(everything, dict) and len(everything) >= 5

    def sliced(*overrides: str) -> tuple[list[str], dict[str, object]]:
        args = ["dataset=demo", "dataset.per_language=3", *overrides]
        result = run_curate(project, args, monkeypatch, capsys)
        assert result.code == 0, result.err
        return [q.id for q in _curated(project, "demo")], _report(project, "demo")

    ids, report = sliced()
    assert report["languages"] == {lang: min(3, n) for lang, n in everything.items()}
    assert report["dropped"] == {"over_per_language": 80 - len(ids)}
    assert report["selection"] == {"languages": None, "per_language": 3, "limit": None, "seed": 0}
    assert sliced()[0] == ids  # same seed, same questions
    other_ids, other = sliced("seed=1")
    assert other_ids != ids and other["languages"] == report["languages"]
    assert other["selection"]["seed"] == 1  # type: ignore[index]
    # Plain overrides (no `+`) of languages and per_language together.
    ids, report = sliced("dataset.languages=[hi,kn]", "dataset.per_language=2")
    assert report["languages"] == {"hi": 2, "kn": 2} and len(ids) == 4


CATARACTBOT_LABELS = {
    # id: (language, script, romanized, code_mixed)
    "Generic-045": ("hi", "Latin", True, True),  # "Dosra eye kab kar sakte hi surgery?"
    "Generic-052": ("hi", "Latin", True, True),  # the same message, sent again
    "Generic-105": ("kn", "Latin", True, False),  # "Nanak. Thondre Akkade."
    "Generic-172": ("kn", "Kannada", False, False),
}


def test_cataractbot_labels_land_on_curated_rows(
    project: Path,
    shared_data: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = f"dataset.path={shared_data / 'cataractbot'}"
    result = run_curate(
        project, ["dataset=cataractbot", path, "++dataset.dedupe=none"], monkeypatch, capsys
    )
    assert result.code == 0, result.err
    by_id = {q.id: q for q in _curated(project, "cataractbot")}
    assert len(by_id) == 210
    for qid, (language, script, romanized, code_mixed) in CATARACTBOT_LABELS.items():
        label = by_id[qid]
        assert (label.language, label.script, label.romanized, label.code_mixed) == (
            language, script, romanized, code_mixed,
        )  # fmt: skip
        assert label.matrix_language == language
        for name in ("language", "script", "romanized", "code_mixed", "matrix_language"):
            assert label.label_source[name] == "detected"
    assert by_id["Generic-045"].categories[:2] == ["code-mixed", "romanized"]
    assert by_id["Generic-045"].category_sources["code-mixed"] == "rule"
    others = [q for qid, q in by_id.items() if qid not in CATARACTBOT_LABELS]
    assert sum(q.language == "en" and not q.romanized for q in others) == len(others)
    assert all(q.domain == "cataract-surgery" for q in by_id.values())

    # With the default (normalised) dedupe, the repeated message is merged into the first.
    result = run_curate(project, ["dataset=cataractbot", path], monkeypatch, capsys)
    assert result.code == 0, result.err
    by_id = {q.id: q for q in _curated(project, "cataractbot")}
    assert (
        "Generic-052" not in by_id and "Generic-052" in by_id["Generic-045"].meta["duplicate_ids"]
    )
    report = _report(project, "cataractbot")
    assert report["rows_in"] == 210 and report["dropped"] == {"duplicate_text": 11}
    assert report["languages"] == {"en": 196, "hi": 1, "kn": 2}
    assert report["pii"] == {"questions_redacted": 0, "matches": {}}  # hospital contacts kept


def test_chat_log_pii_never_reaches_processed_data(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secrets = ["98450 12345", "ravi.kumar@gmail.com", "2345 6789 0123", "+919900112233"]
    write_files(
        project / "data/raw/logs",
        {
            "chat.csv": "id,timestamp,sender,text\n"
            f"c1,2024-05-01 10:00,+919900112233,My number is {secrets[0]} please call\n"
            f"c2,2024-05-02 11:30,+919900112233,Mail the report to {secrets[1]}\n"
            f"c3,2024-05-03 09:00,+919900112233,Aadhaar {secrets[2]} for Ayushman card?\n"
            "c4,2024-05-03 09:05,+919900112233,Can I call the helpline 080-4000-1234?\n"
        },
    )
    chat_log = {"path": "chat.csv", "keep": ["sender"]}
    write_dataset_config(
        project,
        "logs",
        adapter="healthbot",
        path="data/raw/logs",
        options={"questions": None, "chat_logs": [chat_log]},
        pii={"keep": ["080-4000-1234"]},
    )
    assert run_curate(project, ["dataset=logs"], monkeypatch, capsys).code == 0
    for output in output_files(project):
        text = output.read_text(encoding="utf-8")
        assert not any(secret in text for secret in secrets), output.name
    curated = {q.id: q for q in _curated(project, "logs")}
    assert curated["c1"].text == "My number is [PHONE] please call"
    assert curated["c3"].text == "Aadhaar [AADHAAR] for Ayushman card?"
    assert curated["c4"].text.endswith("080-4000-1234?")
    assert curated["c1"].meta["sender"] == "[PHONE]"
    assert "culturally-specific" in curated["c3"].categories
    report = _report(project, "logs")
    assert report["pii"] == {
        "questions_redacted": 4,  # c4 too: its sender is redacted
        "matches": {"aadhaar": 1, "email": 1, "phone": 5},
    }


def test_report_goes_to_mlflow_when_a_tracking_uri_is_set(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import mlflow

    uri = f"sqlite:///{project / 'tracking.db'}"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    assert run_curate(project, ["dataset=demo", "dataset.limit=5"], monkeypatch, capsys).code == 0
    client = mlflow.tracking.MlflowClient(uri)
    experiment = client.get_experiment_by_name("parakh-curation")
    (run,) = client.search_runs([experiment.experiment_id])
    assert run.data.tags["dataset"] == "demo"
    assert run.data.metrics["rows_out"] == 5.0
    assert run.data.metrics["dropped.over_limit"] == 75.0


def test_no_mlflow_run_without_a_tracking_uri(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    assert run_curate(project, ["dataset=demo", "dataset.limit=5"], monkeypatch, capsys).code == 0
    assert not (project / "mlflow.db").exists()
