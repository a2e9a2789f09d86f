"""Shared fixtures: the project root, the shared real data, tiny canonical inputs."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from parakh.schema import KBDocument, Question

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


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
