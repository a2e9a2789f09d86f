"""What a generation run cost: tokens, latency, attempts and money, per item and per run
(apart from the generations, whose timing fields are zeroed so re-runs are byte-identical).
Cost needs the model's `prices`; a cached item costs nothing in the run that reused it, and
`cost_usd_uncached` says what all items would have cost had none been cached.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from parakh.config.model import Prices


@dataclass(frozen=True)
class ItemAccount:
    question_id: str
    status: str
    cached: bool
    attempts: int
    latency_s: float
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    resumed: bool = False  # answered by an earlier, interrupted run (its progress file)
    finish_reason: str | None = None  # "length": the answer was cut by max_tokens


def item_cost(prices: Prices | None, prompt_tokens: int, completion_tokens: int) -> float | None:
    if prices is None:
        return None
    return (
        prompt_tokens * prices.input_per_mtok + completion_tokens * prices.output_per_mtok
    ) / 1e6


def quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarize(
    items: list[ItemAccount], *, wall_s: float, prices: Prices | None, truncated: int
) -> dict[str, Any]:
    """Per-run totals; `backend_*` count only the items the backend answered in this run."""
    called = [i for i in items if not i.cached and not i.resumed]
    answers = [i for i in items if i.status == "ok"]
    stopped = Counter(i.finish_reason or "unknown" for i in answers)  # "unknown": not said
    latencies = [i.latency_s for i in called if i.status == "ok"]
    summary: dict[str, Any] = {
        "items": len(items),
        "ok": len(answers),
        "errors": len(items) - len(answers),
        "cached": sum(i.cached for i in items),
        "resumed": sum(i.resumed and not i.cached for i in items),
        "backend_items": len(called),
        "backend_attempts": sum(i.attempts for i in called),
        "retries": sum(max(0, i.attempts - 1) for i in called),
        "truncated_prompts": truncated,
        "truncated_answers": stopped["length"],
        "finish_reasons": dict(sorted(stopped.items())),
        "prompt_tokens": sum(i.prompt_tokens for i in items),
        "completion_tokens": sum(i.completion_tokens for i in items),
        "backend_prompt_tokens": sum(i.prompt_tokens for i in called),
        "backend_completion_tokens": sum(i.completion_tokens for i in called),
        "wall_s": round(wall_s, 3),
        "items_per_s": round(len(called) / wall_s, 3) if wall_s > 0 else 0.0,
        "latency_mean_s": round(statistics.fmean(latencies), 4) if latencies else 0.0,
        "latency_p50_s": round(quantile(latencies, 0.5), 4),
        "latency_p95_s": round(quantile(latencies, 0.95), 4),
        "cost_usd": None,
        "cost_usd_uncached": None,
    }
    if prices is not None:
        summary["cost_usd"] = round(sum(i.cost_usd or 0.0 for i in called), 6)
        summary["cost_usd_uncached"] = round(
            sum(item_cost(prices, i.prompt_tokens, i.completion_tokens) or 0.0 for i in items), 6
        )
        summary["prices"] = prices.model_dump()
    return summary


def token_usage(items: list[ItemAccount], prices: Prices | None) -> dict[str, Any]:
    """The calls, tokens and prices of one model's items, as a judge summary records them: the
    same for a re-run served from the cache (a cached call keeps its original tokens)."""
    return {
        "calls": len(items),
        "prompt_tokens": sum(i.prompt_tokens for i in items),
        "completion_tokens": sum(i.completion_tokens for i in items),
        "prices": None if prices is None else prices.model_dump(),
    }
