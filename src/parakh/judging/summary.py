"""What one judge run says about itself (`<model>.summary.json`, beside its rows): counts by
metric and status, why rows are invalid or errors, empty answers, flagged responses, self-judged,
repaired and context-cut rows, jury agreement, NoMIRACL's rates (`nomiracl_summary`), and each
judge model's calls and tokens (`judge_usage`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from parakh.backends.accounting import ItemAccount, token_usage
from parakh.config.judge import DEFAULT_PARSER, JudgeConfig, NomiraclParser
from parakh.judging.ballot_rows import INJECTION, REPAIRED, SELF_JUDGED
from parakh.judging.judge_context import CONTEXT_CUT
from parakh.judging.judge_selection import judge_models
from parakh.judging.llm_judge import EMPTY_ANSWER
from parakh.metrics.nomiracl import nomiracl_summary
from parakh.schema import Judgment
from parakh.stats.agreement import jury_agreement


def judge_summary(
    rows: Sequence[Judgment],
    *,
    jurors: Sequence[str] = (),
    integer_scale: dict[str, bool] | None = None,
    nomiracl_parser: NomiraclParser = DEFAULT_PARSER,
) -> dict[str, Any]:
    """Counts and checks over one judge run's rows (see the module docstring)."""
    by_metric: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        by_metric[r.metric][r.status] += 1
    invalid_reasons = Counter(
        (r.reason or "").split(" (not repaired: ")[0] for r in rows if r.status == "invalid"
    )
    # "judge call failed: HTTP 500 ..." -> "judge call failed": the kind, not every message
    error_reasons = Counter(
        (r.reason or "no reason").split(":")[0] for r in rows if r.status == "error"
    )
    empty_answers = sorted({r.question_id for r in rows if r.reason == EMPTY_ANSWER})
    injected = sorted({r.question_id for r in rows if INJECTION in r.flags})
    flagged_responses = {r.question_id: r.injection_cues for r in rows if r.injection_cues}
    cues = Counter(c for found in flagged_responses.values() for c in found)
    summary: dict[str, Any] = {
        "rows": len(rows),
        "status": dict(Counter(r.status for r in rows)),
        "by_metric": {m: dict(c) for m, c in sorted(by_metric.items())},
        "invalid_reasons": dict(invalid_reasons.most_common()),
        "error_reasons": dict(error_reasons.most_common()),
        "empty_answers": {"responses": len(empty_answers), "question_ids": empty_answers},
        "injection": {"responses": len(injected), "question_ids": injected, "cues": dict(cues)},
        "self_judged_rows": sum(SELF_JUDGED in r.flags for r in rows),
        "repaired_rows": sum(REPAIRED in r.flags for r in rows),
        # rubric rows whose knowledge base was cut to fit the judge model's window
        "context_cut_rows": sum(CONTEXT_CUT in r.flags for r in rows),
    }
    if len(jurors) > 1:
        summary["jury_agreement"] = [
            a.model_dump() for a in jury_agreement(rows, list(jurors), integer_scale or {})
        ]
    nomiracl = nomiracl_summary(rows, nomiracl_parser)
    if nomiracl is not None:
        summary["nomiracl"] = nomiracl["by_language"]
        summary["nomiracl_parsers"] = nomiracl["parsers"]
    return summary


def judge_usage(cfg: JudgeConfig, accounts: Mapping[str, list[ItemAccount]]) -> dict[str, Any]:
    """Each judge model's calls (repairs included), tokens and prices: the same on a re-run, a
    cached call keeping its original tokens (its latency and cache hit go to the ledger)."""
    prices = {m.name: m.prices for m in judge_models(cfg)} if accounts else {}
    return {name: token_usage(items, prices.get(name)) for name, items in sorted(accounts.items())}


def merged_usage(summaries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The `usage` of shards' summaries, added up: what one run over all of them records."""
    counts = ("calls", "prompt_tokens", "completion_tokens")
    merged: dict[str, Any] = {}
    for summary in summaries:
        for name, found in (summary.get("usage") or {}).items():
            total = merged.setdefault(name, {**found, **dict.fromkeys(counts, 0)})
            for k in counts:
                total[k] += found[k]
    return dict(sorted(merged.items()))
