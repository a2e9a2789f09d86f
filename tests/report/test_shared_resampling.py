"""The leaderboard's one statistics engine (#19, the only one since #27): each interval is the
cell's own bootstrap from the seed of its questions (to 1e-12), so every cell over the same
questions reads the same resamples and no cell depends on the others; the same rows and seed
give the same leaderboard; another seed moves intervals and sampled p-values only; the removed
`statistics.resampling` setting is an unknown key."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pydantic import ValidationError
from tests.report import synthetic_project as synth
from tests.report.judge_columns import judge_columns

from parakh.config.aggregate import StatisticsConfig
from parakh.report import tables
from parakh.report.items import OVERALL, ItemIndex
from parakh.report.leaderboard import DIMENSIONS, WEIGHTED, Settings, build_leaderboard
from parakh.report.shared_statistics import items_seed
from parakh.stats.bootstrap import bootstrap_interval

WEIGHTS = {"factual_correctness": 0.4, "coherence": 0.15}
DOMAINS = {q.id: q.domain for q in synth.questions()}
SETTINGS = Settings(seed=3)


@pytest.fixture(scope="module")
def rows():
    return [r for m in synth.MODELS for r in synth.judgments(m)]


@pytest.fixture(scope="module")
def board(rows):
    return build_leaderboard(
        judge_columns(rows), synth.MODELS, WEIGHTS, domains=DOMAINS, settings=SETTINGS
    )


def _figures(board):
    return (
        {k: (c.mean, c.n, c.invalid, c.errors, c.skipped) for k, c in board.cells.items()},
        {m: {s: r.rank for s, r in ranks.items()} for m, ranks in board.ranks.items()},
        [(p.metric, p.model_a, p.model_b, p.result.difference) for p in board.paired],
    )


def _uncertainty(board):
    return (
        {k: (c.ci_low, c.ci_high) for k, c in board.cells.items()},
        board.ranks,
        [(p.result.interval, p.result.p_value, p.p_holm) for p in board.paired],
    )


def test_the_same_rows_and_seed_give_the_same_leaderboard(rows, board) -> None:
    again = build_leaderboard(
        judge_columns(rows), synth.MODELS, WEIGHTS, domains=DOMAINS, settings=SETTINGS
    )
    assert _figures(again) == _figures(board)
    assert _uncertainty(again) == _uncertainty(board)


def test_another_seed_moves_only_intervals_and_sampled_p_values(rows, board) -> None:
    other = build_leaderboard(
        judge_columns(rows),
        synth.MODELS,
        WEIGHTS,
        domains=DOMAINS,
        settings=replace(SETTINGS, seed=4),
    )
    assert _figures(other) == _figures(board)
    assert _uncertainty(other)[0] != _uncertainty(board)[0]
    assert all(0.0 < p.result.p_value <= 1.0 for p in other.paired)


def test_each_interval_is_the_cells_bootstrap_from_its_questions_seed(rows, board) -> None:
    index = ItemIndex.of(judge_columns(rows), DOMAINS)
    slices = [OVERALL, *((d, v) for d in DIMENSIONS for v in board.slices(d))]
    checked = 0
    for system in board.models:
        for metric in board.metrics:
            if metric == WEIGHTED:
                continue
            for key in slices:
                table = index.table(system, metric, key)
                if table is None:
                    continue
                scores, _, digest = table
                own = bootstrap_interval(scores, seed=items_seed(SETTINGS.seed, digest))
                cell = board.cells[(system, metric, *key)]
                if own is None:
                    assert cell.ci_low is None
                    continue
                assert cell.ci_low == pytest.approx(own.low, abs=1e-12)
                assert cell.ci_high == pytest.approx(own.high, abs=1e-12)
                checked += 1
    assert checked > 20


def test_a_models_intervals_do_not_depend_on_the_other_models(rows, board) -> None:
    first = synth.MODELS[0]
    alone = build_leaderboard(
        judge_columns([r for r in rows if r.model == first]),
        [first],
        WEIGHTS,
        domains=DOMAINS,
        settings=SETTINGS,
    )
    assert alone.cells
    for key, cell in alone.cells.items():
        together = board.cells[key]
        assert cell.mean == together.mean
        for low_high in ((cell.ci_low, together.ci_low), (cell.ci_high, together.ci_high)):
            assert low_high[0] == pytest.approx(low_high[1], abs=1e-12)


def test_the_removed_resampling_setting_is_an_unknown_key(board) -> None:
    assert "resampling" not in tables.leaderboard_document(board)["settings"]
    with pytest.raises(ValidationError, match="resampling"):
        StatisticsConfig.model_validate({"resampling": "shared"})
