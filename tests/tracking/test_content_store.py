"""MLflow gets each input file once, by content hash: the experiment's content store.

On a real SQLite store with a local artifact root: a file is uploaded once however many runs
reference it, a cut-off upload is uploaded again, `fetch` checks every hash; and aggregate on
the synthetic project adds no artifact bytes when re-run on unchanged inputs, uploads only the
changed judge file when one changes, and `parakh reproduce` rebuilds every figure from the
store.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.report.synthetic_project import make_project
from tests.tracking.conftest import run_parakh

from parakh.errors import InputError
from parakh.tracking.content_store import (
    ContentStore,
    fetch,
    file_sha256,
    store_folder,
    store_run,
)


@pytest.fixture
def store(tmp_path: Path) -> ContentStore:
    from mlflow.tracking import MlflowClient

    client = MlflowClient(f"sqlite:///{tmp_path / 'mlflow.db'}")
    exp_id = client.create_experiment("store", artifact_location=str(tmp_path / "artifacts"))
    return ContentStore(client, exp_id)


def _file(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_is_uploaded_once_whoever_puts_it(store: ContentStore, tmp_path: Path) -> None:
    rows = _file(tmp_path / "a", "alpha.jsonl", '{"score": 1}\n')
    first = store.put("judgments", rows)
    assert store.put("again", rows).artifact == first.artifact  # known to this process
    assert first.artifact == f"{store_folder(file_sha256(rows))}/alpha.jsonl"
    copy = _file(tmp_path / "b", "copy.jsonl", '{"score": 1}\n')  # same bytes, other name
    later = ContentStore(store.client, store.experiment_id)  # another aggregate, later
    again = later.put("processed/demo/judge/smoke/alpha.jsonl", copy)
    assert (again.run_id, again.artifact) == (first.run_id, first.artifact)
    assert later.uploaded == {} and list(later.reused) == [first.sha256]
    listed = store.client.list_artifacts(first.run_id, store_folder(first.sha256))
    assert [a.path for a in listed] == [first.artifact]
    other = later.put("beta", _file(tmp_path / "a", "beta.jsonl", '{"score": 0}\n'))
    assert list(later.uploaded) == [other.sha256] and other.run_id == first.run_id
    run = store.client.get_run(first.run_id)
    assert run.data.tags["parakh.content_store"] == "true"
    assert run.info.run_name == "parakh content store"


def test_the_oldest_store_run_is_the_store(store: ContentStore) -> None:
    """Two aggregates creating the store at once both end up using the older run."""
    first = store_run(store.client, store.experiment_id)
    tags = {"parakh.content_store": "true"}
    store.client.create_run(store.experiment_id, tags=tags, start_time=10**13)
    assert store_run(store.client, store.experiment_id) == first


def test_a_cut_off_upload_is_uploaded_again(store: ContentStore, tmp_path: Path) -> None:
    rows = _file(tmp_path, "alpha.jsonl", "x" * 1000)
    entry = store.put("judgments", rows)
    on_disk = tmp_path / "artifacts" / entry.run_id / "artifacts" / entry.artifact
    on_disk.write_text("x" * 10)  # an upload that stopped half-way
    later = ContentStore(store.client, store.experiment_id)
    assert later.put("judgments", rows).artifact == entry.artifact
    assert list(later.uploaded) == [entry.sha256]
    assert on_disk.read_text() == "x" * 1000


def test_fetch_lays_files_out_and_checks_their_hashes(store: ContentStore, tmp_path: Path) -> None:
    files = {
        "processed/demo/judge/smoke/alpha.jsonl": _file(tmp_path / "j", "alpha.jsonl", "a\n"),
        "human_grades.jsonl": _file(tmp_path / "g", "grades.jsonl", "g\n"),
    }
    manifest = store.manifest(files)
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    out = tmp_path / "out"
    written = fetch(uri, manifest, out, tmp_path / "scratch")
    assert sorted(p.relative_to(out).as_posix() for p in written) == sorted(files)
    assert (out / "processed/demo/judge/smoke/alpha.jsonl").read_text() == "a\n"
    wrong = json.loads(json.dumps(manifest))
    wrong["files"][0]["sha256"] = "0" * 64
    with pytest.raises(InputError, match="does not match"):
        fetch(uri, wrong, tmp_path / "out2", tmp_path / "scratch2")
    outside = json.loads(json.dumps(manifest))
    outside["files"][0]["name"] = "../escaped.jsonl"
    with pytest.raises(InputError, match="relative path"):
        fetch(uri, outside, tmp_path / "out3", tmp_path / "scratch3")


# --- aggregate on the synthetic project, logging to a SQLite store under the project ----------


def _artifact_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in (root / "mlruns").rglob("*") if p.is_file())


def _stored(root: Path) -> dict[str, int]:
    """The content store's files (sha256/<2>/<sha256>/<name>) -> bytes."""
    return {
        p.relative_to(p.parents[3]).as_posix(): p.stat().st_size
        for p in (root / "mlruns").glob("*/*/artifacts/sha256/*/*/*")
    }


def _sweeps(uri: str) -> list[Any]:
    """The experiment's sweep runs, newest first."""
    from mlflow.tracking import MlflowClient

    client = MlflowClient(uri)
    experiment = client.get_experiment_by_name("parakh")
    runs = client.search_runs(
        [experiment.experiment_id],
        filter_string="tags.`parakh.level` = 'sweep'",
        order_by=["attributes.start_time DESC"],
    )
    return list(runs)


def _manifest(root: Path, run: Any) -> dict[str, dict[str, Any]]:
    path = root / "mlruns" / run.info.experiment_id / run.info.run_id / "artifacts/inputs"
    document = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    return {e["name"]: e for e in document["files"]}


def _reproduce(root: Path, uri: str, run_id: str, out: Path) -> None:
    done = run_parakh(
        ["parakh.cli", "reproduce", "--mlflow-run", run_id, "--out", str(out)], root, uri
    )
    assert "figures identical" in done.stdout, done.stdout
    expected = json.loads((root / "reports/demo/smoke/leaderboard.json").read_text())
    assert json.loads((out / "leaderboard.json").read_text())["cells"] == expected["cells"]


def _change_one_score(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[0])
    row["score"] = 0.0 if row["score"] else 1.0
    lines[0] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
def test_unchanged_inputs_add_no_artifact_bytes_and_a_changed_file_goes_in_once(
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path / "project")
    uri = f"sqlite:///{root / 'mlflow.db'}"
    run_parakh(["parakh.stages.aggregate"], root, uri)
    first_bytes, first_stored = _artifact_bytes(root), _stored(root)
    (first,) = _sweeps(uri)
    inputs = _manifest(root, first)
    assert set(inputs) == {
        "processed/demo/curate/questions.jsonl",
        *(f"processed/demo/judge/smoke/{m}.jsonl" for m in ("alpha", "beta", "gamma")),
        # the answers: their tokens are counted for the costs
        *(f"processed/demo/generate/{m}.jsonl" for m in ("alpha", "beta", "gamma")),
    }
    # the store: the inputs, once (the model runs' samples/manifest.json name the answers too)
    assert len(first_stored) == len(inputs)
    assert {e["artifact"] for e in inputs.values()} <= set(first_stored)

    again = run_parakh(["parakh.stages.aggregate"], root, uri)
    assert "already logged" in again.stdout
    assert (_artifact_bytes(root), len(_sweeps(uri))) == (first_bytes, 1)

    # the same inputs, other settings: a new sweep, and not one input file uploaded again
    run_parakh(
        ["parakh.stages.aggregate", "aggregate.statistics.bootstrap_resamples=500"], root, uri
    )
    assert len(_sweeps(uri)) == 2 and _stored(root) == first_stored
    second = _sweeps(uri)[0]
    assert _manifest(root, second) == inputs
    folder = root / "mlruns" / second.info.experiment_id / second.info.run_id / "artifacts"
    assert sorted(p.name for p in (folder / "inputs").iterdir()) == ["config.json", "manifest.json"]

    # alpha's judge rows change: only that file is uploaded
    alpha = root / "data/processed/demo/judge/smoke/alpha.jsonl"
    _change_one_score(alpha)
    run_parakh(["parakh.stages.aggregate"], root, uri)
    newest = _sweeps(uri)[0]
    stored = _stored(root)
    added = {path: size for path, size in stored.items() if path not in first_stored}
    assert list(added) == [f"{store_folder(file_sha256(alpha))}/alpha.jsonl"]
    assert stored.items() >= first_stored.items()
    changed = {n for n, e in _manifest(root, newest).items() if e != inputs[n]}
    assert changed == {"processed/demo/judge/smoke/alpha.jsonl"}
    _reproduce(root, uri, newest.info.run_id, tmp_path / "rebuilt")
