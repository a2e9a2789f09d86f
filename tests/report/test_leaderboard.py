"""Leaderboard cells per slice: means on the metric's scale, counts beside, seeded intervals,
weighted aggregate, rank intervals, paired tests, translate-test entries."""

from __future__ import annotations

import pytest
from tests.report import synthetic_project as synth
from tests.report.judge_columns import judge_columns

from parakh.errors import InputError
from parakh.report.items import UNCATEGORISED
from parakh.report.leaderboard import ALL, WEIGHTED, Settings, build_leaderboard
from parakh.schema import Judgment

WEIGHTS = {"factual_correctness": 0.4, "coherence": 0.15}
DOMAINS = {q.id: q.domain for q in synth.questions()}


def _rows(models: list[str] = synth.MODELS) -> list[Judgment]:
    return [r for m in models for r in synth.judgments(m)]


@pytest.fixture(scope="module")
def board():
    return build_leaderboard(judge_columns(_rows()), synth.MODELS, WEIGHTS, domains=DOMAINS)


def _mean(rows: list[Judgment]) -> float:
    scores = [r.score for r in rows if r.status == "ok" and r.score is not None]
    return sum(scores) / len(scores)


def test_every_slice_has_its_cell_with_counts_beside_the_mean(board) -> None:
    rows = [r for r in synth.judgments("alpha") if r.metric == "factual_correctness"]
    hindi = [r for r in rows if r.language == "hi"]
    cell = board.cell("alpha", "factual_correctness", "language", "hi")
    assert cell.mean == pytest.approx(_mean(hindi))
    assert cell.n == sum(r.status == "ok" for r in hindi)
    assert (cell.invalid, cell.errors, cell.skipped) == (
        sum(r.status == "invalid" for r in hindi),
        sum(r.status == "error" for r in hindi),
        sum(r.status == "skipped" for r in hindi),
    )
    assert cell.percent == pytest.approx(100 * cell.mean / 2.0)
    kb = [r for r in rows if "kb-update" in r.categories]
    assert board.cell("alpha", "factual_correctness", "category", "kb-update").mean == (
        pytest.approx(_mean(kb))
    )
    plain = [r for r in rows if not r.categories]
    assert board.cell("alpha", "factual_correctness", "category", UNCATEGORISED).mean == (
        pytest.approx(_mean(plain))
    )
    cataract = [r for r in rows if DOMAINS[r.question_id] == "cataract"]
    assert board.cell("alpha", "factual_correctness", "domain", "cataract").mean == (
        pytest.approx(_mean(cataract))
    )
    assert board.get("alpha", "factual_correctness").mean == pytest.approx(_mean(rows))
    assert board.languages == ["en", "hi", "ta"]
    assert board.domains == ["cataract", "diabetes"]
    assert UNCATEGORISED in board.categories and "romanized" in board.categories


def test_every_cell_has_a_seeded_interval_around_its_mean(board) -> None:
    for cell in board.cells.values():
        assert cell.mean is not None and cell.ci_low is not None and cell.ci_high is not None
        assert cell.ci_low - 1e-12 <= cell.mean <= cell.ci_high + 1e-12
    again = build_leaderboard(judge_columns(_rows()), synth.MODELS, WEIGHTS, domains=DOMAINS)
    assert {k: (c.ci_low, c.ci_high) for k, c in again.cells.items()} == {
        k: (c.ci_low, c.ci_high) for k, c in board.cells.items()
    }


def test_a_cells_interval_depends_only_on_its_own_rows(board) -> None:
    alone = build_leaderboard(judge_columns(_rows(["alpha"])), ["alpha"], WEIGHTS, domains=DOMAINS)
    for key, cell in alone.cells.items():
        assert (cell.ci_low, cell.ci_high) == (board.cells[key].ci_low, board.cells[key].ci_high)
    other_seed = build_leaderboard(
        judge_columns(_rows(["alpha"])),
        ["alpha"],
        WEIGHTS,
        domains=DOMAINS,
        settings=Settings(seed=1),
    )
    assert other_seed.get("alpha", "chrf").ci_low != alone.get("alpha", "chrf").ci_low


def test_weighted_aggregate_scales_metrics_and_ignores_unweighted_ones(board) -> None:
    fc, co = board.get("alpha", "factual_correctness"), board.get("alpha", "coherence")
    expected = (0.4 * fc.mean / 2 + 0.15 * co.mean / 2) / 0.55
    weighted = board.get("alpha", WEIGHTED)
    assert weighted.mean == pytest.approx(expected) and weighted.scale_max == 1.0
    assert weighted.invalid == fc.invalid + co.invalid
    assert board.metrics[0] == WEIGHTED and "chrf" in board.metrics


def test_rank_intervals_and_paired_tests(board) -> None:
    assert board.ranking(WEIGHTED) == ["alpha", "beta", "gamma"]
    ranks = board.ranks[WEIGHTED]
    assert (ranks["alpha"].rank, ranks["alpha"].low, ranks["alpha"].high) == (1, 1, 1)
    chrf_pairs = {(c.model_a, c.model_b): c for c in board.paired if c.metric == "chrf"}
    assert set(chrf_pairs) == {("alpha", "beta"), ("alpha", "gamma"), ("beta", "gamma")}
    clear = chrf_pairs[("alpha", "beta")]
    assert clear.result.n == synth.N_QUESTIONS and clear.result.difference > 20
    assert clear.p_holm < 0.01 and clear.p_holm >= clear.result.p_value


def test_translate_test_rows_are_their_own_entry() -> None:
    direct = synth.judgments("alpha")
    translated = [
        r.model_copy(update={"translator": "indictrans2"}) for r in synth.judgments("beta")
    ]
    translated = [r.model_copy(update={"model": "alpha"}) for r in translated]
    board = build_leaderboard(judge_columns(direct + translated), ["alpha"], WEIGHTS)
    assert board.models == ["alpha", "alpha via indictrans2"]
    assert board.systems["alpha via indictrans2"] == ("alpha", "indictrans2")
    assert board.get("alpha", "chrf").mean == pytest.approx(
        _mean([r for r in direct if r.metric == "chrf"])
    )
    assert any(c.model_b == "alpha via indictrans2" for c in board.paired)


def test_a_translate_test_variant_has_no_empty_direct_entry() -> None:
    """A `<model>@translate-test` variant is listed by its name but every row it has is
    translated: its one entry is `... via <translator>`, with no empty direct row beside it."""
    variant = "alpha@translate-test"
    translated = [
        r.model_copy(update={"model": variant, "translator": "indictrans2"})
        for r in synth.judgments("beta")
    ]
    board = build_leaderboard(
        judge_columns(synth.judgments("alpha") + translated), ["alpha", variant], WEIGHTS
    )
    assert board.models == ["alpha", f"{variant} via indictrans2"]


def test_a_model_without_rows_stays_on_the_board_without_cells() -> None:
    board = build_leaderboard(judge_columns(_rows(["alpha"])), ["alpha", "missing"], WEIGHTS)
    assert board.models == ["alpha", "missing"]
    assert board.get("missing", "chrf") is None
    assert "missing" not in board.ranks["chrf"]


def test_one_metric_on_two_scales_is_an_error() -> None:
    rows = synth.judgments("alpha")
    rows[2] = rows[2].model_copy(update={"scale_max": 10.0})
    with pytest.raises(InputError, match="two scales"):
        build_leaderboard(judge_columns(rows), ["alpha"], WEIGHTS)


def test_no_categories_means_no_category_slices() -> None:
    rows = [r.model_copy(update={"categories": []}) for r in synth.judgments("alpha")]
    board = build_leaderboard(judge_columns(rows), ["alpha"], WEIGHTS)
    assert board.categories == [] and board.domains == []
    assert board.get("alpha", "chrf", ALL) is not None
