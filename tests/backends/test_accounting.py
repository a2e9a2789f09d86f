"""Run accounting: tokens, attempts, latency and cost (only with prices; cached items free)."""

from __future__ import annotations

from dataclasses import asdict, replace

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


def test_answers_cut_by_max_tokens_are_counted_by_finish_reason() -> None:
    items = [
        _item("a"),
        _item("b"),
        _item("c"),
        _item("d"),
        _item("e", status="error"),
    ]
    reasons = ["stop", "length", "length", None, None]
    items = [replace(i, finish_reason=r) for i, r in zip(items, reasons, strict=True)]
    summary = summarize(items, wall_s=1.0, prices=None, truncated=0)
    assert summary["truncated_answers"] == 2
    # errors have no answer to have stopped; an answer whose backend did not say is "unknown"
    assert summary["finish_reasons"] == {"length": 2, "stop": 1, "unknown": 1}


def test_a_ledger_written_before_finish_reasons_still_loads() -> None:
    old = asdict(_item("a"))
    del old["finish_reason"]
    item = ItemAccount(**old)
    assert item.finish_reason is None
    assert summarize([item], wall_s=1.0, prices=None, truncated=0)["truncated_answers"] == 0
