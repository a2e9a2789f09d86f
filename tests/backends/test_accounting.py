"""Run accounting: tokens, attempts, latency and cost (only with prices; cached items free)."""

from __future__ import annotations

import pytest

from parakh.backends.accounting import ItemAccount, item_cost, summarize
from parakh.config.model import Prices

PRICES = Prices(input_per_mtok=2.5, output_per_mtok=10.0)


def _item(qid: str, *, cached: bool = False, status: str = "ok", attempts: int = 1) -> ItemAccount:
    return ItemAccount(
        qid,
        status,
        cached,
        attempts,
        0.5,
        1000,
        100,
        None if cached else item_cost(PRICES, 1000, 100),
    )


def test_cost_counts_only_the_calls_made_in_this_run() -> None:
    items = [
        _item("a"),
        _item("b", attempts=3),
        _item("c", cached=True),
        _item("d", status="error"),
    ]
    summary = summarize(items, wall_s=2.0, prices=PRICES, truncated=1)
    assert item_cost(PRICES, 1000, 100) == pytest.approx(0.0035)
    assert summary["cost_usd"] == pytest.approx(3 * 0.0035)
    assert summary["cost_usd_uncached"] == pytest.approx(4 * 0.0035)
    assert summary["cached"] == 1 and summary["backend_items"] == 3 and summary["errors"] == 1
    assert summary["retries"] == 2 and summary["backend_attempts"] == 5
    assert summary["truncated_prompts"] == 1 and summary["items_per_s"] == 1.5


def test_without_prices_there_is_no_cost() -> None:
    summary = summarize([_item("a")], wall_s=1.0, prices=None, truncated=0)
    assert summary["cost_usd"] is None and summary["cost_usd_uncached"] is None
