"""aggregate.run: means over scored rows, counts beside them, weighted aggregate."""

from __future__ import annotations

from parakh.config import compose
from parakh.report.leaderboard import ALL, WEIGHTED, language_table, metrics_dict
from parakh.schema import Judgment
from parakh.stages import aggregate


def _row(model, metric, language, score, status="ok"):
    return Judgment(
        question_id=f"{model}{metric}{language}{score}",
        model=model,
        judge="j",
        metric=metric,
        language=language,
        status=status,
        score=score if status == "ok" else None,
        scale_max=2.0,
    )


def test_means_weights_and_counts() -> None:
    cfg = compose()
    rows = [
        _row("a", "factual_correctness", "en", 2),
        _row("a", "factual_correctness", "hi", 0),
        _row("a", "factual_correctness", "hi", None, status="invalid"),
        _row("a", "coherence", "en", 2),
        _row("a", "coherence", "hi", 2),
        _row("b", "factual_correctness", "en", 1),
        _row("b", "coherence", "en", 1),
        _row("b", "factual_correctness", "hi", 1),
        _row("b", "coherence", "hi", 1),
    ]
    board = aggregate.run(cfg, rows, ["a", "b"])
    fc = board.get("a", "factual_correctness", ALL)
    assert fc is not None and fc.mean == 1.0 and fc.n == 2 and fc.invalid == 1
    w = cfg.aggregate.weights
    expected = (w["factual_correctness"] * 0.5 + w["coherence"] * 1.0) / (
        w["factual_correctness"] + w["coherence"]
    )
    weighted = board.get("a", WEIGHTED, ALL)
    assert weighted is not None and abs((weighted.mean or 0) - expected) < 1e-12
    assert board.metrics[0] == WEIGHTED
    scores = metrics_dict(board)
    assert scores["b"]["coherence"]["hi"] == 1.0
    table = language_table(board, WEIGHTED)
    assert table[0] == ["model", "en", "hi", ALL]
