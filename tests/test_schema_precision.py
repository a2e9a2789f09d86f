"""Judge rows are written at a fixed precision, so their hash is the same on every machine."""

from __future__ import annotations

from pathlib import Path

from parakh.io import read_jsonl, write_jsonl
from parakh.schema import Judgment


def _row(score: float, votes: dict[str, float | None] | None = None) -> Judgment:
    return Judgment(
        question_id="q1",
        model="m",
        judge="reference",
        metric="embedding_similarity",
        language="hi",
        status="ok",
        score=score,
        votes=votes or {},
    )


def test_scores_differing_in_their_last_bits_are_written_identically(tmp_path: Path) -> None:
    score = 0.7234567891234
    nudged = score + 3e-8  # a float32 cosine through another SIMD kernel
    assert nudged != score
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(a, [_row(score, {"j1": score, "j2": None})])
    write_jsonl(b, [_row(nudged, {"j1": nudged, "j2": None})])
    assert a.read_bytes() == b.read_bytes()
    (back,) = read_jsonl(a, Judgment)
    assert back.score == 0.7235
    assert back.votes == {"j1": 0.7235, "j2": None}


def test_unscored_rows_keep_no_score() -> None:
    row = _row(0.5).model_copy(update={"score": None, "status": "error"})
    assert row.model_dump(mode="json")["score"] is None
