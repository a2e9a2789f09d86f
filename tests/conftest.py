"""Shared fixtures: the project root, the shared real data, tiny canonical inputs."""

from __future__ import annotations

import os


def _own_cores_per_worker() -> None:
    """Under `pytest -n N` (pytest-xdist), worker i keeps cores i, i+N, ... for itself and every
    process it starts (affinity is inherited), and thread pools size to that share. Without
    this, each worker's llama.cpp (or BLAS) would run a thread per machine core: on 2 cores two
    workers' spinning threads slowed the SmolLM2 tests six-fold."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # "gw0", "gw1", ...
    if worker is None or not hasattr(os, "sched_setaffinity"):
        return
    cores = sorted(os.sched_getaffinity(0))
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    share = cores[int(worker.removeprefix("gw")) % len(cores) :: max(1, count)] or cores
    os.sched_setaffinity(0, share)
    for pool in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[pool] = str(len(share))


_own_cores_per_worker()  # before numpy or torch is imported, so their pools see the share

from datetime import date  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from parakh.schema import KBDocument, Question  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"

# The DVC projects the tests create start with DVC's defaults, which spawn an analytics daemon
# beside every `dvc` command: a second Python process on a 2-core machine, sending to a network
# an offline machine cannot reach. Every dvc the tests run inherits this.
os.environ.setdefault("DVC_NO_ANALYTICS", "1")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest modules first, then the others with a slow test, then the rest. Under `make
    test` (pytest-xdist, a module runs whole on one worker: `--dist loadfile`) the long pipeline
    modules then start at once instead of last, where one worker would run them alone."""
    slow = {item.module.__name__ for item in items if item.get_closest_marker("slow")}

    def rank(item: pytest.Item) -> tuple[bool, bool]:
        name = item.module.__name__
        return name not in LONGEST_MODULES, name not in slow

    items.sort(key=rank)  # stable: each module's tests keep their order


# The two longest modules (about 4 and 3.5 minutes of one core, `pytest --durations`), which
# decide when the run ends unless they start first.
LONGEST_MODULES = frozenset({"tests.scale.test_real_route", "tests.test_pipeline_e2e"})


@pytest.fixture(autouse=True)
def _project_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test resolves conf/ and paths against this checkout, wherever pytest runs."""
    monkeypatch.setenv("PARAKH_ROOT", str(REPO))
    # Each test starts with no tracking URI from the environment, and whatever a test (or a
    # library it calls) puts there is removed afterwards, so no later subprocess inherits it.
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA


@pytest.fixture
def tiny_questions() -> list[Question]:
    return [
        Question(
            id="q1",
            text="How many days should I not wash my head after surgery?",
            language="en",
            reference_answers=["Do not wash your head for 10 days."],
            asked_at=date(2024, 2, 1),
            categories=["condition-specific"],
        ),
        Question(
            id="q2",
            text="ऑपरेशन के बाद आई ड्रॉप कितनी बार डालें?",
            language="hi",
            reference_answers=["दिन में चार बार दो सप्ताह तक डालें।"],
            asked_at=date(2024, 8, 1),
        ),
        Question(
            id="q3",
            text="When is my surgery?",
            language="en",
            answerable=False,
            reference_answers=[
                "I do not know the answer to your question. If this needs "
                "to be answered by a doctor, please schedule a "
                "consultation."
            ],
            asked_at=date(2024, 8, 1),
            categories=["unanswerable"],
        ),
    ]


@pytest.fixture
def tiny_kb() -> list[KBDocument]:
    return [
        KBDocument(
            id="raw:post",
            kind="raw",
            source="post.md",
            title="Post-operative care",
            text="Do not wash your head for 10 days after surgery. Use the eye drops "
            "four times a day for two weeks. Wear protective glasses outdoors.",
        ),
        KBDocument(
            id="raw:diet",
            kind="raw",
            source="diet.md",
            title="Diet",
            text="There are no food restrictions after cataract surgery. Avoid hard food "
            "for the first few days.",
        ),
        KBDocument(
            id="update:2024-01-15:000",
            kind="update",
            source="2024-01-15.md",
            title="Head bath?",
            added_at=date(2024, 1, 15),
            text="When can I take a head bath?\nAfter 10 days.",
        ),
        KBDocument(
            id="update:2024-07-01:000",
            kind="update",
            source="2024-07-01.md",
            title="Head bath?",
            added_at=date(2024, 7, 1),
            text="When can I take a head bath?\nAfter 7 days, with the head tilted back.",
        ),
    ]


def write_answerable_inputs(root: Path, questions: list[Question], dataset: str = "demo") -> None:
    """Curate's questions and index's retrieval for `questions`, one KB chunk each ("Fact for
    <id>."): what generate reads, for tests that start at generate."""
    from parakh.io import write_jsonl
    from parakh.schema import Retrieval, RetrievedChunk

    chunk = {"document_id": "d", "kind": "raw", "score": 1.0}
    retrievals = [
        Retrieval(
            question_id=q.id,
            raw_chunks=[RetrievedChunk(chunk_id=f"c{q.id}", text=f"Fact for {q.id}.", **chunk)],
            kb_update_chunks=[],
        )
        for q in questions
    ]
    processed = root / "data" / "processed" / dataset
    write_jsonl(processed / "curate" / "questions.jsonl", questions)
    write_jsonl(processed / "index" / "retrieval.jsonl", retrievals)
