"""Bad-input corpus, files the run depends on (#16 items 1, 8, 9): damaged caches, a missing
upstream file, a refused or full disk, and text that used to tear or mis-score a row.

Tests run as root here, where `chmod` refuses nothing: a read-only folder and a full disk are
the OS errors those conditions raise, injected where Parakh writes (the same errno, the same
call); a real read-only folder is also tried when the tests run as another user.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
import yaml

from parakh.backends.base import Completion
from parakh.backends.cache import ResponseCache
from parakh.io import write_jsonl
from parakh.schema import KBDocument, Question
from tests.badinput.harness import assert_rejected, make_project, run_parakh, snapshot
from tests.conftest import write_answerable_inputs

OUTPUTS = ["data/processed", "reports"]


def _project(root: Path) -> Path:
    """Curate and index outputs for four questions, and a scripted model `echo`."""
    make_project(root)
    questions = [
        Question(
            id=f"q{i}",
            text=f"Question {i}?",
            language="en",
            reference_answers=[f"Answer {i}."],
            asked_at=date(2024, 8, 1),
        )
        for i in range(4)
    ]
    kb = [KBDocument(id="raw:a", kind="raw", source="a.md", title="A", text="Answer 1. Fact.")]
    write_answerable_inputs(root, questions)
    write_jsonl(root / "data" / "processed" / "demo" / "curate" / "kb.jsonl", kb)
    model = {"name": "echo", "backend": "scripted", "default_response": "Answer for {question}"}
    (root / "conf" / "model" / "echo.yaml").write_text(yaml.safe_dump(model), encoding="utf-8")
    return root


GENERATE = ["generate", "dataset=demo", "model=echo"]


def _damaged_sqlite(path: Path) -> None:
    """A real cache file with its table pages overwritten (a copy cut short, a disk fault)."""
    cache = ResponseCache(path)
    for i in range(200):
        cache.put(f"k{i}", Completion(text="x" * 500, finish_reason="stop"))
    cache.close()
    data = bytearray(path.read_bytes())
    data[4096 : len(data) - 4096] = b"\xa5" * (len(data) - 8192)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(
            lambda p: p.write_bytes(b"not a database " * 300), id="item8-cache-not-sqlite"
        ),
        pytest.param(_damaged_sqlite, id="item8-cache-damaged-pages"),
    ],
)
def test_damaged_response_cache(tmp_path, monkeypatch, capsys, damage) -> None:
    root = _project(tmp_path)
    cache = root / ".parakh" / "cache.sqlite"
    cache.parent.mkdir(parents=True, exist_ok=True)
    damage(cache)
    before = _outputs(root)
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    assert_rejected(outcome, names=[str(cache), "delete it"], before=before, after=_outputs(root))


def test_item8_damaged_embedding_cache(tmp_path, monkeypatch, capsys) -> None:
    root = _project(tmp_path)
    cache = root / ".parakh" / "embeddings.sqlite"
    cache.parent.mkdir(parents=True)
    cache.write_bytes(b"\x00garbage" * 1000)
    before = snapshot(root, OUTPUTS)
    args = ["index", "dataset=demo", "embedder=hashing", "embedder.cache=true"]
    outcome = run_parakh(root, args, monkeypatch, capsys)
    assert_rejected(
        outcome, names=[str(cache), "move it aside"], before=before, after=snapshot(root, OUTPUTS)
    )


def test_item8_missing_upstream_file(tmp_path, monkeypatch, capsys) -> None:
    """The conf's upstream repo lacks the file: dvc's own message is `unexpected error`;
    Parakh's names the path, the repo, the commit and the conf file, and changes nothing."""
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q"], cwd=upstream, check=True)
    (upstream / "README").write_text("no data here\n")
    subprocess.run([*git, "add", "README"], cwd=upstream, check=True)
    subprocess.run([*git, "commit", "-qm", "readme"], cwd=upstream, check=True)
    rev = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=upstream, capture_output=True, text=True, check=True
    ).stdout.strip()
    root = make_project(tmp_path / "project")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run([Path(sys.executable).with_name("dvc"), "init", "-q"], cwd=root, check=True)
    conf = root / "conf" / "dataset" / "xquad_hi.yaml"
    config = yaml.safe_load(conf.read_text(encoding="utf-8"))
    config["source"].update(repo=str(upstream), rev=rev)
    conf.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    before = snapshot(root, ["data"])
    outcome = run_parakh(root, ["import-data", "xquad_hi"], monkeypatch, capsys)
    assert_rejected(
        outcome,
        names=["xquad.hi.json", str(upstream), rev, "conf/dataset/xquad_hi.yaml"],
        before=before,
        after=snapshot(root, ["data"]),
    )


def test_item8_missing_file_in_imported_folder(tmp_path, monkeypatch, capsys) -> None:
    root = make_project(tmp_path)
    (root / "data" / "raw" / "xquad_hi").mkdir(parents=True)
    before = snapshot(root, OUTPUTS)
    outcome = run_parakh(root, ["curate", "dataset=xquad_hi"], monkeypatch, capsys)
    assert_rejected(
        outcome, names=["xquad.hi.json", "not found"], before=before, after=snapshot(root, OUTPUTS)
    )


def _outputs(root: Path) -> dict[str, str]:
    """The outputs, less generate's resume journal: the answers computed before a refused
    write stay there on purpose, so the rerun after the fix does not ask for them again."""
    return {p: h for p, h in snapshot(root, OUTPUTS).items() if not p.endswith(".progress.jsonl")}


def _refuse_writes_under(folder: Path, code: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every temporary output file under `folder` fail as the OS does with `code`."""
    import tempfile

    real = tempfile.mkstemp

    def mkstemp(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - tempfile's own signature
        where = Path(kwargs.get("dir") or ".").resolve()
        if where.is_relative_to(folder):
            raise OSError(code, os.strerror(code), str(where))
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)


@pytest.mark.parametrize(
    ("code", "advice"),
    [
        pytest.param(errno.EACCES, "chmod", id="item8-read-only-folder"),
        pytest.param(errno.EROFS, "writable disk", id="item8-read-only-filesystem"),
    ],
)
def test_refused_write(tmp_path, monkeypatch, capsys, code, advice) -> None:
    root = _project(tmp_path)
    folder = (root / "data" / "processed" / "demo" / "generate").resolve()
    _refuse_writes_under(folder, code, monkeypatch)
    before = _outputs(root)
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    assert_rejected(outcome, names=[str(folder), advice], before=before, after=_outputs(root))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_item8_real_read_only_folder(tmp_path, monkeypatch, capsys) -> None:
    root = _project(tmp_path)
    folder = root / "data" / "processed" / "demo"
    folder.chmod(0o555)
    try:
        before = _outputs(root)
        outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
        assert_rejected(outcome, names=["chmod"], before=before, after=_outputs(root))
    finally:
        folder.chmod(0o755)


def test_item8_full_disk(tmp_path, monkeypatch, capsys) -> None:
    """A write that the disk refuses mid-file (ENOSPC from fsync names no file): the error
    names the output being written, and the temporary file is gone."""
    root = _project(tmp_path)
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if "/generate/.echo.jsonl." in os.readlink(f"/proc/self/fd/{fd}"):  # its temp file
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    before = _outputs(root)
    outcome = run_parakh(root, GENERATE, monkeypatch, capsys)
    assert_rejected(
        outcome,
        names=["echo.jsonl", "No space left", "disk is full"],
        before=before,
        after=_outputs(root),
    )


def test_item1_line_separators_in_an_answer(tmp_path, monkeypatch, capsys) -> None:
    """An answer holding U+2028, U+2029 and U+0085 is one row through generate and judge."""
    root = _project(tmp_path)
    model = {
        "name": "echo",
        "backend": "scripted",
        "default_response": "Answer\u2028one\u2029two\x85three",
    }
    (root / "conf" / "model" / "echo.yaml").write_text(yaml.safe_dump(model), encoding="utf-8")
    assert run_parakh(root, GENERATE, monkeypatch, capsys).code == 0
    judged = run_parakh(
        root, ["judge", "dataset=demo", "model=echo", "judge=reference"], monkeypatch, capsys
    )
    assert judged.code == 0, judged.message
    generations = root / "data" / "processed" / "demo" / "generate" / "echo.jsonl"
    rows = [json.loads(line) for line in generations.read_text(encoding="utf-8").split("\n")[:-1]]
    assert [r["response"] for r in rows] == ["Answer\u2028one\u2029two\x85three"] * 4


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("🙏🙏", id="item9-emoji"),
        pytest.param("?!", id="item9-punctuation"),
        pytest.param("👍🏽 ✔", id="item9-emoji-modifier"),
    ],
)
def test_identity_scores_one_on_symbols(tmp_path, monkeypatch, capsys, text) -> None:
    """`parakh score` on a prediction identical to its reference gives every reference metric
    its top score, symbols only or not."""
    root = make_project(tmp_path)
    predictions = root / "predictions.jsonl"
    row = {"id": "r1", "prediction": text, "reference": text, "language": "en"}
    predictions.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    out = root / "scores"
    args = ["score", str(predictions), "--metrics", "exact_match,token_f1,rouge_l,chrf"]
    outcome = run_parakh(root, [*args, "--out", str(out)], monkeypatch, capsys)
    assert outcome.code == 0, outcome.message
    (row,) = [
        json.loads(line) for line in (out / "scores.jsonl").read_text("utf-8").split("\n")[:-1]
    ]
    top = {"exact_match": 1.0, "token_f1": 1.0, "rouge_l": 1.0, "chrf": 100.0}
    assert row["scores"] == top, row
