"""Sharded generate and judge: 4 shards merged equal the unsharded output byte for byte (rows,
run spec, judge summary), and the merge refuses missing, overlapping, stale or mismatched
shards, naming the file. Stages run as users run them, in a temp project."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from parakh import cli
from parakh.config import compose
from parakh.errors import ConfigError, InputError, ParakhError
from parakh.io import write_jsonl
from parakh.scale.shard import shard_of
from parakh.schema import Question, Retrieval, RetrievedChunk
from parakh.stages import generate, judge
from tests.support.servers import start_python_server

REPO = Path(__file__).resolve().parents[2]
N_QUESTIONS = 30
SHARDS = 4
LANGUAGES = ("en", "hi", "ta")
FACTS = (
    "Do not wash your head for ten days after surgery. Use the eye drops four times a day. "
    "Wear dark glasses outdoors for a week. There are no food restrictions after surgery."
)


def _verdict(score: int) -> str:
    return json.dumps({"Score": score, "Justification": "scripted verdict"})


def make_project(root: Path) -> Path:
    """This checkout's conf/, tiny curate/index outputs, and a judge `sharded`: two scripted
    jurors that disagree now and then, reference metrics, and a per-language sample."""
    shutil.copytree(REPO / "conf", root / "conf")
    questions = [
        Question(
            id=f"q{i:03d}",
            text=f"Question {i}: when can I wash my head after surgery?",
            language=LANGUAGES[i % 3],
            reference_answers=["Do not wash your head for ten days after surgery."],
            asked_at=date(2024, 8, 1),
            categories=["condition-specific"] if i % 4 else ["unanswerable"],
        )
        for i in range(N_QUESTIONS)
    ]
    chunk = {"document_id": "d", "kind": "raw", "score": 1.0}
    retrievals = [
        Retrieval(
            question_id=q.id,
            raw_chunks=[RetrievedChunk(chunk_id=f"c{q.id}", text=FACTS, **chunk)],
            kb_update_chunks=[],
        )
        for q in questions
    ]
    processed = root / "data" / "processed" / "demo"
    write_jsonl(processed / "curate" / "questions.jsonl", questions)
    write_jsonl(processed / "index" / "retrieval.jsonl", retrievals)
    models = root / "conf" / "model"
    for name, offset in (("juror_a", 0), ("juror_b", 1)):
        scores = {f"q{i:03d}::coherence": _verdict((i * (offset + 1)) % 3) for i in range(30)}
        juror = {"name": name, "backend": "scripted", "responses": scores}
        (models / f"{name}.yaml").write_text(json.dumps({**juror, "default_response": "?"}))
    sharded_judge = {
        "name": "sharded",
        "prompt": "judge_healthbot",
        "rubrics": ["coherence"],
        "reference_metrics": ["token_f1", "chrf", "language_match"],
        "jury": {"models": ["juror_a", "juror_b"]},
        "sample_per_language": 7,
    }
    (root / "conf" / "judge" / "sharded.yaml").write_text(json.dumps(sharded_judge))
    return root


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "project")
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    return root


def run_stage(task: Callable, *overrides: str) -> None:
    task(compose(["dataset=demo", "progress=false", "model=extractive", *overrides]))


def merge(stage: str, *overrides: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["merge-shards", stage, "dataset=demo", "model=extractive", *overrides])
    assert exit_.value.code == 0


def merge_error(stage: str, *overrides: str) -> ParakhError:
    """The error of a merge that must fail (called directly to see the exception)."""
    with pytest.raises(ParakhError) as err:
        module = generate if stage == "generate" else judge
        run_stage(module.merge_task, *overrides)
    return err.value


def generations(root: Path) -> Path:
    return root / "data" / "processed" / "demo" / "generate" / "extractive.jsonl"


def judgments(root: Path) -> Path:
    return root / "data" / "processed" / "demo" / "judge" / "sharded" / "extractive.jsonl"


def shard_file(root: Path, stage_path: str, index: int, count: int = SHARDS) -> Path:
    return (
        root
        / "data/processed/demo/shards"
        / stage_path
        / f"extractive.shard-{index}-of-{count}.jsonl"
    )


def sidecar(path: Path, kind: str) -> Path:
    return path.with_name(path.name.replace(".jsonl", f".{kind}.json"))


def take(paths: list[Path]) -> dict[str, bytes]:
    """Read and remove outputs, so that what comes later must write them anew."""
    found = {p.name: p.read_bytes() for p in paths}
    for p in paths:
        p.unlink()
    return found


def run_shards(task: Callable, *overrides: str, output: Path) -> None:
    for i in range(SHARDS):
        run_stage(task, f"shard={i}", f"num_shards={SHARDS}", *overrides)
        assert not output.exists(), "a shard never writes the unsharded output"


def test_generate_and_judge_in_four_shards_merge_to_the_unsharded_outputs(project: Path) -> None:
    ids = [f"q{i:03d}" for i in range(N_QUESTIONS)]
    by_shard = [[q for q in ids if shard_of(q, SHARDS) == i] for i in range(SHARDS)]
    assert all(by_shard), "every shard has questions, so each merge joins four real files"

    out = generations(project)
    run_stage(generate.main_task)
    ledger_file = project / ".parakh" / "accounting" / "demo" / "extractive.json"
    single_ledger = json.loads(ledger_file.read_text())
    expected = take([out, sidecar(out, "runspec")])
    run_shards(generate.main_task, output=out)
    for i, questions in enumerate(by_shard):  # each shard holds exactly its hash's questions
        shard = shard_file(project, "generate", i)
        rows = shard.read_text().splitlines()
        assert [json.loads(r)["question_id"] for r in rows] == questions
        ledger = json.loads(sidecar(shard, "accounting").read_text())
        assert ledger["run"]["shard"] == {"index": i, "count": SHARDS}
        assert json.loads(sidecar(shard, "runspec").read_text())["config"]["shard"]["index"] == i
    assert not list(shard.parent.glob(".*progress*")), "each shard removes its progress file"
    ledger_file.unlink()
    merge("generate", f"num_shards={SHARDS}")
    assert out.read_bytes() == expected["extractive.jsonl"]
    assert (out.parent / "extractive.runspec.json").read_bytes() == expected[
        "extractive.runspec.json"
    ]
    merged_ledger = json.loads(ledger_file.read_text())
    assert [i["question_id"] for i in merged_ledger["items"]] == ids
    assert merged_ledger["run"] == {**single_ledger["run"], "shards": SHARDS}
    for key in ("items", "ok", "errors", "prompt_tokens", "completion_tokens"):
        assert merged_ledger["summary"][key] == single_ledger["summary"][key], key
    assert merged_ledger["summary"]["shards"] == SHARDS
    assert len(merged_ledger["summary"]["shard_wall_s"]) == SHARDS

    out = judgments(project)
    run_stage(judge.main_task, "judge=sharded")
    names = ["extractive.jsonl", "extractive.summary.json", "extractive.runspec.json"]
    expected = take([out.parent / n for n in names])
    single = [json.loads(line) for line in expected["extractive.jsonl"].splitlines()]
    rubric_rows = [r for r in single if r["metric"] == "coherence"]
    assert len(rubric_rows) == N_QUESTIONS
    assert sum(r["status"] == "skipped" for r in rubric_rows) == N_QUESTIONS - 3 * 7
    assert json.loads(expected["extractive.summary.json"])["jury_agreement"]
    run_shards(judge.main_task, "judge=sharded", output=out)
    merge("judge", "judge=sharded", f"num_shards={SHARDS}")
    for name in names:
        assert (out.parent / name).read_bytes() == expected[name], name


def test_a_shard_spec_out_of_range_or_half_given_is_a_config_error(project: Path) -> None:
    for overrides, message in (
        (["shard=4", "num_shards=4"], "shard=4 is out of range for num_shards=4"),
        (["shard=1"], "shard=1 needs num_shards"),
        (["num_shards=4"], "num_shards=4 without shard"),
    ):
        with pytest.raises(ConfigError, match=message):
            run_stage(generate.main_task, *overrides)
    with pytest.raises(ConfigError, match="greater than or equal to 0"):
        compose(["shard=-1", "num_shards=2"])
    with pytest.raises(ConfigError, match="leave out shard=1"):
        run_stage(generate.merge_task, "shard=1", "num_shards=4")
    assert not generations(project).exists()


def test_a_shard_without_questions_writes_an_empty_file(project: Path) -> None:
    count = 64  # more shards than questions: some hold none
    empty = next(
        i
        for i in range(count)
        if all(shard_of(f"q{k:03d}", count) != i for k in range(N_QUESTIONS))
    )
    run_stage(generate.main_task, f"shard={empty}", f"num_shards={count}")
    shard = shard_file(project, "generate", empty, count)
    assert shard.read_bytes() == b""
    assert json.loads(sidecar(shard, "accounting").read_text())["summary"]["items"] == 0


def test_the_merge_names_a_missing_shard_and_shards_split_another_way(project: Path) -> None:
    out = generations(project)
    for i in (0, 1, 3):
        run_stage(generate.main_task, f"shard={i}", f"num_shards={SHARDS}")
    err = merge_error("generate", f"num_shards={SHARDS}")
    assert isinstance(err, InputError)
    assert str(shard_file(project, "generate", 2)) in str(err)
    assert "shard 2 of 4 is missing" in str(err) and "shard=2 num_shards=4" in str(err)

    run_stage(generate.main_task, "shard=2", f"num_shards={SHARDS}")
    run_stage(generate.main_task, "shard=0", "num_shards=3")
    err = merge_error("generate", f"num_shards={SHARDS}")
    assert "disagree on num_shards" in str(err) and "num_shards=3 (1 files)" in str(err)
    err = merge_error("generate", "num_shards=3")
    assert "shard 1 of 3 is missing" in str(err) and "num_shards=4 (4 files)" in str(err)
    assert not out.exists(), "a failed merge writes nothing"


def test_the_merge_refuses_overlapping_shards_other_configs_and_changed_inputs(
    project: Path,
) -> None:
    out = generations(project)
    run_shards(generate.main_task, output=out)
    first, second = shard_file(project, "generate", 0), shard_file(project, "generate", 1)
    original = second.read_bytes()
    stray = first.read_text().splitlines()[0]
    second.write_text(second.read_text() + stray + "\n")
    err = merge_error("generate", f"num_shards={SHARDS}")
    assert str(second) in str(err) and "belongs to shard 0 of 4, not shard 1" in str(err)
    second.write_bytes(original)

    run_stage(generate.main_task, "shard=1", f"num_shards={SHARDS}", "model.max_sentences=1")
    err = merge_error("generate", f"num_shards={SHARDS}")
    assert "shard 1 ran with another config" in str(err)
    assert "config.model.max_sentences" in str(err)
    run_stage(generate.main_task, "shard=1", f"num_shards={SHARDS}")
    err = merge_error("generate", f"num_shards={SHARDS}", "model.max_sentences=1")
    assert isinstance(err, ConfigError) and "another config than this merge's" in str(err)

    questions = project / "data" / "processed" / "demo" / "curate" / "questions.jsonl"
    questions.write_text(questions.read_text().replace("Question 7:", "Question seven:"))
    err = merge_error("generate", f"num_shards={SHARDS}")
    assert "inputs that have changed since (questions)" in str(err)
    assert not out.exists()


def _process(root: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", *args, "dataset=demo", "model=fault", "progress=false"],
        cwd=root,
        env={**os.environ, "PARAKH_ROOT": str(root), "OPENAI_API_KEY": "sk-test"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _finish(process: subprocess.Popen) -> str:
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 0, out
    return out


@pytest.mark.slow
@pytest.mark.server
def test_four_shard_processes_at_once_against_a_faulty_server_merge_to_the_single_run(
    tmp_path: Path,
) -> None:
    """An OpenAI model behind a server failing 20% of attempts (429, 500): four shard processes
    run at once, sharing one response cache, then `python -m parakh.cli merge-shards`."""
    log = tmp_path / "server.log"
    faults = ["--fail-rate", "0.2", "--faults", "429,500", "--retry-after", "0.01"]
    with start_python_server(["tests.support.fault_server", *faults], log_path=log) as server:
        roots = {}
        for name in ("single", "sharded"):
            root = roots[name] = make_project(tmp_path / name)
            model = {
                "name": "fault",
                "backend": "openai",
                "model_id": "fault-model",
                "base_url": server.base_url,
                "concurrency": 4,
                "max_retries": 6,
                "backoff_s": 0.01,
                "prices": {"input_per_mtok": 2.5, "output_per_mtok": 10.0},
            }
            (root / "conf" / "model" / "fault.yaml").write_text(json.dumps(model))
        _finish(_process(roots["single"], "parakh.stages.generate"))
        shards = [
            _process(roots["sharded"], "parakh.stages.generate", f"shard={i}", "num_shards=4")
            for i in range(SHARDS)
        ]
        for process in shards:
            _finish(process)
    merged = _finish(
        _process(roots["sharded"], "parakh.cli", "merge-shards", "generate", "num_shards=4")
    )
    assert "4 shards merged" in merged
    output = Path("data/processed/demo/generate/fault.jsonl")
    expected = (roots["single"] / output).read_bytes()
    assert len(expected.splitlines()) == N_QUESTIONS
    assert b'"status":"ok"' in expected
    assert (roots["sharded"] / output).read_bytes() == expected
    ledger = Path(".parakh/accounting/demo/fault.json")
    single, joined = (json.loads((roots[n] / ledger).read_text()) for n in ("single", "sharded"))
    for key in ("items", "ok", "errors", "backend_items", "prompt_tokens", "cost_usd_uncached"):
        assert joined["summary"][key] == single["summary"][key], key
    assert joined["summary"]["retries"] > 0 and joined["summary"]["cached"] == 0


def test_with_repeated_samples_the_shards_merge_to_the_unsharded_outputs(project: Path) -> None:
    """generation.samples=2: each shard asks its questions twice; the merges keep a question's
    samples together (generate) and each sample's rows in turn (judge), as a single run."""
    samples = "generation.samples=2"
    out = generations(project)
    run_stage(generate.main_task, samples)
    ledger_file = project / ".parakh" / "accounting" / "demo" / "extractive.json"
    single_items = json.loads(ledger_file.read_text())["items"]
    expected = take([out, sidecar(out, "runspec")])
    assert len(expected["extractive.jsonl"].splitlines()) == 2 * N_QUESTIONS
    run_shards(generate.main_task, samples, output=out)
    merge("generate", samples, f"num_shards={SHARDS}")
    assert out.read_bytes() == expected["extractive.jsonl"]
    merged_items = json.loads(ledger_file.read_text())["items"]
    assert [i["question_id"] for i in merged_items] == [i["question_id"] for i in single_items]

    out = judgments(project)
    run_stage(judge.main_task, "judge=sharded", samples)
    names = ["extractive.jsonl", "extractive.summary.json", "extractive.runspec.json"]
    expected = take([out.parent / n for n in names])
    rows = [json.loads(line) for line in expected["extractive.jsonl"].splitlines()]
    assert {r.get("sample", 0) for r in rows} == {0, 1}
    run_shards(judge.main_task, "judge=sharded", samples, output=out)
    merge("judge", "judge=sharded", samples, f"num_shards={SHARDS}")
    for name in names:
        assert (out.parent / name).read_bytes() == expected[name], name
