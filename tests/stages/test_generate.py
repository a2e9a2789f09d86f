"""The generate stage as users run it (`python -m parakh.stages.generate`), in a temp project,
against the fault-injecting OpenAI-compatible server on loopback: resume after SIGKILL, a
cached re-run of a sweep, accounting, and no trace of the API key anywhere it writes."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import write_answerable_inputs
from tests.support.servers import ServerProcess, start_python_server

from parakh.schema import Question

REPO = Path(__file__).resolve().parents[2]
N_QUESTIONS = 60
SECRET = "sk-parakh-test-5ecr3t-0123456789"


def _stats(server: ServerProcess) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + "/stats", timeout=5) as response:
        stats: dict[str, Any] = json.load(response)
    return stats


def _reset(server: ServerProcess) -> None:
    urllib.request.urlopen(
        urllib.request.Request(server.url + "/reset", data=b"{}", method="POST"), timeout=5
    ).close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    log = tmp_path_factory.mktemp("fault") / "server.log"
    with start_python_server(
        ["tests.support.fault_server", "--latency", "0.03"], log_path=log
    ) as started:
        yield started


def make_project(root: Path, base_url: str, **model_settings: Any) -> Path:
    """A Parakh project with this checkout's conf/, tiny curate/index outputs, and model
    configs `fault` and `fault2` pointing at the fault server."""
    shutil.copytree(REPO / "conf", root / "conf")
    questions = [
        Question(
            id=f"q{i:03d}",
            text=f"Question number {i}?",
            language="hi" if i % 2 else "en",
            asked_at=date(2024, 8, 1),
        )
        for i in range(N_QUESTIONS)
    ]
    write_answerable_inputs(root, questions)
    for name in ("fault", "fault2"):
        settings = {
            "name": name,
            "backend": "openai",
            "model_id": f"{name}-model",
            "base_url": base_url,
            "api_key_env": "OPENAI_API_KEY",
            "concurrency": 4,
            "timeout_s": 10,
            "max_retries": 2,
            "backoff_s": 0.01,
            "prices": {"input_per_mtok": 2.5, "output_per_mtok": 10.0},
            **model_settings,
        }
        (root / "conf" / "model" / f"{name}.yaml").write_text(json.dumps(settings))
    return root


def stage(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    flags = [a for a in args if a.startswith("-")]
    overrides = [a for a in args if not a.startswith("-")]
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "parakh.stages.generate",
            *flags,
            "dataset=demo",
            "progress=false",
            *overrides,
        ],
        cwd=root,
        env={**os.environ, "PARAKH_ROOT": str(root), **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def finish(process: subprocess.Popen, timeout: float = 60) -> str:
    out, _ = process.communicate(timeout=timeout)
    assert process.returncode == 0, out
    return out


def fails(process: subprocess.Popen, timeout: float = 60) -> str:
    """A run whose requests all failed: rows written, then a non-zero exit saying why."""
    out, _ = process.communicate(timeout=timeout)
    assert process.returncode not in (0, None), out
    assert "requests failed" in out and "Traceback" not in out, out
    return out


def output_of(root: Path, name: str = "fault") -> Path:
    return root / "data" / "processed" / "demo" / "generate" / f"{name}.jsonl"


@pytest.mark.server
@pytest.mark.slow
def test_sigkill_at_random_points_then_resume_gives_the_uninterrupted_output(
    tmp_path: Path, server: ServerProcess
) -> None:
    reference = make_project(tmp_path / "reference", server.base_url)
    finish(stage(reference, "model=fault"))
    expected = output_of(reference).read_bytes()
    assert len(expected.splitlines()) == N_QUESTIONS

    rng = random.Random(20240801)
    for trial in range(5):
        root = make_project(tmp_path / f"trial{trial}", server.base_url)
        _reset(server)
        progress = output_of(root).with_name(".fault.progress.jsonl")
        kill_after = rng.randint(1, N_QUESTIONS - 10)
        process = stage(root, "model=fault")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if progress.exists() and progress.read_bytes().count(b"\n") >= kill_after:
                break
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=30)
        assert process.returncode == -signal.SIGKILL
        assert not output_of(root).exists()  # the output appears only when complete
        finish(stage(root, "model=fault"))
        assert output_of(root).read_bytes() == expected, f"trial {trial}"
        ids = [json.loads(line)["question_id"] for line in expected.splitlines()]
        assert len(ids) == len(set(ids)) == N_QUESTIONS
        # Only items in flight at the kill were asked twice.
        assert _stats(server)["requests"] <= N_QUESTIONS + 4, f"trial {trial}"


@pytest.mark.server
@pytest.mark.slow
def test_a_second_run_of_a_sweep_makes_no_backend_call_and_accounts_for_it(
    tmp_path: Path, server: ServerProcess
) -> None:
    root = make_project(tmp_path / "sweep", server.base_url)
    _reset(server)
    finish(stage(root, "-m", "model=fault,fault2"))
    assert _stats(server)["requests"] == 2 * N_QUESTIONS
    first = {name: output_of(root, name).read_bytes() for name in ("fault", "fault2")}
    ledger = json.loads((root / ".parakh" / "accounting" / "demo" / "fault.json").read_text())
    summary = ledger["summary"]
    assert summary["items"] == summary["ok"] == summary["backend_items"] == N_QUESTIONS
    assert summary["cost_usd"] > 0 and len(ledger["items"]) == N_QUESTIONS
    assert all(item["latency_s"] > 0 for item in ledger["items"])

    finish(stage(root, "-m", "model=fault,fault2"))
    assert _stats(server)["requests"] == 2 * N_QUESTIONS  # zero calls the second time
    for name in ("fault", "fault2"):
        assert output_of(root, name).read_bytes() == first[name]
    again = json.loads((root / ".parakh" / "accounting" / "demo" / "fault.json").read_text())
    assert again["summary"]["cached"] == N_QUESTIONS and again["summary"]["cost_usd"] == 0


@pytest.mark.server
@pytest.mark.slow
def test_an_api_key_in_the_environment_leaves_no_trace(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Requests carry the key; the server echoes it in 401 errors; MLflow logging is on.
    Every request of fault2 fails (a wrong key): its rows are written, and the stage fails."""
    log = tmp_path_factory.mktemp("secret") / "server.log"
    with start_python_server(
        ["tests.support.fault_server", "--require-key", SECRET, "--echo-auth-in-errors"],
        log_path=log,
    ) as keyed:
        root = make_project(tmp_path / "secret", keyed.base_url)
        (root / "conf" / "model" / "fault2.yaml").write_text(
            (root / "conf" / "model" / "fault2.yaml")
            .read_text()
            .replace('"OPENAI_API_KEY"', '"PARAKH_OTHER_KEY"')
        )
        env = {"OPENAI_API_KEY": SECRET, "PARAKH_OTHER_KEY": SECRET[::-1]}
        logs = [
            finish(stage(root, "model=fault", "generation.log_mlflow=true", env=env), 180),
            fails(stage(root, "model=fault2", env=env), 60),
        ]
    rows = [json.loads(line) for line in output_of(root, "fault2").read_text().splitlines()]
    assert rows and all(r["status"] == "error" and "[redacted]" in r["error"] for r in rows)
    from mlflow.tracking import MlflowClient

    client = MlflowClient(f"sqlite:///{root / 'mlflow.db'}")
    (run,) = client.search_runs(
        [client.get_experiment_by_name("parakh").experiment_id], "tags.stage = 'generate'"
    )
    assert run.data.metrics["generate.items"] == N_QUESTIONS
    assert run.data.metrics["generate.cost_usd"] > 0
    for secret in (SECRET, SECRET[::-1]):
        for text in logs:
            assert secret not in text
        for path in root.rglob("*"):
            if path.is_file():
                assert secret.encode() not in path.read_bytes(), path


def test_a_prompt_variant_writes_its_own_file_and_records_truncation(
    tmp_path: Path, tiny_questions
) -> None:
    """In-process: NoMIRACL-style passages, a small window, a prompt-variant output name."""
    from parakh.backends.scripted import ScriptedBackend
    from parakh.config import compose
    from parakh.config.model import ScriptedModel
    from parakh.schema import Passage
    from parakh.stages import generate

    cfg = compose(["generation.prompt=nomiracl_role"])
    model = ScriptedModel(
        name="fake",
        backend="scripted",
        default_response="I don't know",
        context_window=400,
        sampling={"max_tokens": 16},
    )
    cfg = cfg.model_copy(update={"model": model})
    questions = [
        q.model_copy(
            update={"contexts": [Passage(id=f"p{i}", text="word " * 60) for i in range(10)]}
        )
        for q in tiny_questions
    ]
    result = generate.run(
        cfg, questions, [], ScriptedBackend(model), None, tmp_path / "progress.jsonl"
    )
    assert cfg.generation.output_name("fake") == "fake@nomiracl_role.0shot"
    assert [g.model for g in result.generations] == ["fake@nomiracl_role.0shot"] * 3
    for g in result.generations:
        assert (
            g.messages[0]["role"] == "system"
            and "evaluator who checks whether the answer" in g.messages[0]["content"]
        )
        assert g.truncation is not None and g.truncation.passages_given == 10
        assert 0 < g.truncation.passages_kept < 10 and not g.truncation.overflow
    assert result.summary["truncated_prompts"] == 3


def test_items_resumed_from_an_interrupted_run_are_not_billed_again(
    tmp_path: Path, tiny_questions
) -> None:
    from parakh.backends.scripted import ScriptedBackend
    from parakh.config import compose
    from parakh.config.model import ScriptedModel
    from parakh.stages import generate

    model = ScriptedModel(
        name="fake",
        backend="scripted",
        default_response="ok",
        prices={"input_per_mtok": 1.0, "output_per_mtok": 1.0},
    )
    cfg = compose().model_copy(update={"model": model})
    progress = tmp_path / "progress.jsonl"
    generate.run(cfg, tiny_questions[:2], [], ScriptedBackend(model), None, progress)
    result = generate.run(cfg, tiny_questions, [], ScriptedBackend(model), None, progress)
    summary = result.summary
    assert summary["items"] == 3 and summary["resumed"] == 2 and summary["backend_items"] == 1
    assert [i.resumed for i in result.items] == [True, True, False]
    assert summary["cost_usd"] == pytest.approx(result.items[2].cost_usd)


def test_answers_cut_by_max_tokens_are_recorded_counted_and_reported(
    tmp_path: Path, tiny_questions, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each row says why its model stopped; the ledger counts the answers cut by max_tokens,
    the stage's line says how many; a cached re-run writes the same rows."""
    from parakh.backends.base import ChatRequest, Completion
    from parakh.backends.cache import ResponseCache
    from parakh.backends.scripted import ScriptedBackend
    from parakh.config import compose
    from parakh.config.model import ScriptedModel
    from parakh.stages import generate

    class CutsQ2(ScriptedBackend):
        def complete(self, request: ChatRequest) -> Completion:
            completion = super().complete(request)
            if request.key == "q2":
                completion.finish_reason = "length"
            return completion

    model = ScriptedModel(name="fake", backend="scripted", default_response="Rest for")
    cfg = compose().model_copy(update={"model": model})
    cache = ResponseCache(tmp_path / "cache.sqlite")
    first = generate.run(cfg, tiny_questions, [], CutsQ2(model), cache, tmp_path / "progress.jsonl")
    assert [g.finish_reason for g in first.generations] == ["stop", "length", "stop"]
    assert first.summary["truncated_answers"] == 1
    assert first.summary["finish_reasons"] == {"length": 1, "stop": 2}
    generate._report("fake", first.summary, tmp_path / "fake.jsonl")
    assert "1 answers cut by max_tokens" in capsys.readouterr().out

    backend = CutsQ2(model)
    again = generate.run(cfg, tiny_questions, [], backend, cache, tmp_path / "progress2.jsonl")
    cache.close()
    assert backend.calls == 0 and again.summary["cached"] == 3
    assert again.generations == first.generations
    assert again.summary["truncated_answers"] == 1


def _failure_cfg(backend: str, share: float):  # type: ignore[no-untyped-def]
    from parakh.config import compose

    cfg = compose([f"generation.max_failed_share={share}"])
    return cfg.model_copy(
        update={"model": cfg.model.model_copy(update={"name": "m", "backend": backend})}
    )


def _rows(errors: list[str | None]) -> list:  # type: ignore[type-arg]
    from parakh.schema import Generation

    return [
        Generation(question_id=f"q{i}", model="m", status="ok", response="answer")
        if error is None
        else Generation(question_id=f"q{i}", model="m", status="error", error=error)
        for i, error in enumerate(errors)
    ]


@pytest.mark.parametrize(
    ("errors", "share", "fails"),
    [
        ([None, None, None, None], 0.5, False),
        (["HTTP 500", "HTTP 500", None, None], 0.5, False),  # half is not more than half
        (["HTTP 500", "HTTP 500", "HTTP 500", None], 0.5, True),
        (["HTTP 500", None, None, None], 0.0, True),
        (["HTTP 500", "HTTP 500", "HTTP 500", None], 1.0, False),
        (["HTTP 404"] * 4, 1.0, True),  # every request failed: always a failed run
        ([], 0.5, False),
    ],
)
def test_a_run_fails_when_all_or_more_than_the_share_of_its_answers_are_errors(
    errors: list[str | None], share: float, fails: bool
) -> None:
    from parakh.stages.generate import FailedRunError, check_failures

    path = Path("data/processed/demo/generate/m.jsonl")
    cfg = _failure_cfg("openai", share)
    if not fails:
        check_failures(cfg, _rows(errors), path)
        return
    with pytest.raises(FailedRunError) as failure:
        check_failures(cfg, _rows(errors), path)
    failed = sum(e is not None for e in errors)
    message = str(failure.value)
    assert f"model 'm': {failed} of {len(errors)} requests failed" in message
    assert f"{failed} x HTTP" in message and str(path) in message
    assert "generation.max_failed_share" in message


def test_questions_not_asked_neither_fail_a_run_nor_count_in_it() -> None:
    from parakh.backends.replay import NOT_ASKED
    from parakh.stages.generate import FailedRunError, check_failures

    unasked = [f"{NOT_ASKED} the question's prompt is unavailable (null)"] * 3
    check_failures(_failure_cfg("openai", 0.5), _rows([*unasked, None]), Path("m.jsonl"))
    with pytest.raises(FailedRunError, match="1 of 1 requests failed"):
        check_failures(_failure_cfg("openai", 0.5), _rows([*unasked, "HTTP 500"]), Path("m"))


def test_backends_that_send_no_request_never_fail_a_run() -> None:
    """A replay file lacking most answers, or closed-book extractive rows, are the data."""
    from parakh.stages.generate import check_failures

    for backend in ("replay", "extractive"):
        check_failures(_failure_cfg(backend, 0.5), _rows(["no stored answer"] * 3), Path("m"))
