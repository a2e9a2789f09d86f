"""`aggregate.statistics.resampling: shared` (#19): the same leaderboard means, ranks and
differences as per-cell resampling; each interval is the cell's own bootstrap from the seed of
its questions (to 1e-12), so every cell over the same questions reads the same resamples; the
setting is named in leaderboard.json only when it is not the default."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.report import synthetic_project as synth

from parakh.report import tables
from parakh.report.columns import JudgeColumns
from parakh.report.items import OVERALL, ItemIndex
from parakh.report.leaderboard import DIMENSIONS, WEIGHTED, Settings, build_leaderboard
from parakh.report.shared_statistics import items_seed
from parakh.stats.bootstrap import bootstrap_interval

WEIGHTS = {"factual_correctness": 0.4, "coherence": 0.15}
DOMAINS = {q.id: q.domain for q in synth.questions()}
SHARED = Settings(seed=3, resampling="shared")


@pytest.fixture(scope="module")
def rows():
    return [r for m in synth.MODELS for r in synth.judgments(m)]


@pytest.fixture(scope="module")
def boards(rows):
    per_cell = build_leaderboard(
        rows,
        synth.MODELS,
        WEIGHTS,
        domains=DOMAINS,
        settings=replace(SHARED, resampling="per_cell"),
    )
    shared = build_leaderboard(rows, synth.MODELS, WEIGHTS, domains=DOMAINS, settings=SHARED)
    return per_cell, shared


def test_means_counts_ranks_and_differences_do_not_depend_on_resampling(boards) -> None:
    per_cell, shared = boards
    assert per_cell.cells.keys() == shared.cells.keys()
    for key, cell in per_cell.cells.items():
        other = shared.cells[key]
        assert (cell.mean, cell.n, cell.invalid, cell.errors) == (
            other.mean, other.n, other.invalid, other.errors
        )  # fmt: skip
    for metric, ranks in per_cell.ranks.items():
        assert {m: r.rank for m, r in ranks.items()} == {
            m: r.rank for m, r in shared.ranks[metric].items()
        }
    assert [(p.metric, p.model_a, p.model_b, p.result.difference) for p in per_cell.paired] == [
        (p.metric, p.model_a, p.model_b, p.result.difference) for p in shared.paired
    ]
    assert all(0.0 < p.result.p_value <= 1.0 for p in shared.paired)


def test_each_interval_is_the_cells_bootstrap_from_its_questions_seed(rows, boards) -> None:
    _, shared = boards
    index = ItemIndex.of(JudgeColumns.of_rows(rows), DOMAINS)
    slices = [OVERALL, *((d, v) for d in DIMENSIONS for v in shared.slices(d))]
    checked = 0
    for system in shared.models:
        for metric in shared.metrics:
            if metric == WEIGHTED:
                continue
            for key in slices:
                table = index.table(system, metric, key)
                if table is None:
                    continue
                scores, _, digest = table
                own = bootstrap_interval(scores, seed=items_seed(SHARED.seed, digest))
                cell = shared.cells[(system, metric, *key)]
                if own is None:
                    assert cell.ci_low is None
                    continue
                assert cell.ci_low == pytest.approx(own.low, abs=1e-12)
                assert cell.ci_high == pytest.approx(own.high, abs=1e-12)
                checked += 1
    assert checked > 20


def test_leaderboard_json_names_shared_resampling_only(boards) -> None:
    per_cell, shared = boards
    assert "resampling" not in tables.leaderboard_document(per_cell)["settings"]
    assert tables.leaderboard_document(shared)["settings"]["resampling"] == "shared"
