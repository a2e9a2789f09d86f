"""What each model's answers and their judging cost: tokens, USD at the model configs' prices,
cost per 1,000 questions with its bootstrap interval, and measured latency.

Tokens and cost are recorded, so a re-run gives the same figures: generation tokens are the
generations rows' `usage` (a cached answer keeps its original usage: its original cost counts
once), priced with the `prices` of the model config in the generations' run spec; judge tokens
are the judge summary's `usage` per judge model (repairs included), priced with the prices
recorded there. A model without prices has no cost ("no price"), never a cost of 0.
Latency and cache hits are measured: they come from the run's ledger (`stage_outputs.ledgers`,
outside the stage outputs) when it is there and its tokens match the rows, else "not measured".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.json as pa_json

from parakh.backends.accounting import item_cost, quantile
from parakh.config.model import Prices
from parakh.errors import InputError
from parakh.report.leaderboard import Leaderboard
from parakh.report.shared_statistics import Settings
from parakh.stage_outputs import Layout, spec_path, summary_path
from parakh.stats.bootstrap import bootstrap_mean_interval, derive_seed

GENERATE = "generate"
NOT_MEASURED: dict[str, Any] = {"cached": None, "latency_p50_s": None, "latency_p95_s": None}
_TOKENS = pa.struct([("prompt_tokens", pa.int64()), ("completion_tokens", pa.int64())])


@dataclass(frozen=True)
class RecordedUsage:
    """One generations file's tokens per question and prices, its judge summary's usage per
    judge model, and the measured figures of the ledgers that match them."""

    prompt_tokens: np.ndarray
    completion_tokens: np.ndarray
    prices: Prices | None
    judges: dict[str, dict[str, Any]]
    measured: dict[str, dict[str, Any]]  # "generate", judge models


def read_usage(
    layout: Layout, judge: str, model: str, ledgers: Path | None, paths: dict[str, Path]
) -> RecordedUsage | None:
    """`model`'s recorded usage (None: no generations file); the files read go into `paths`.
    `ledgers`: the ledgers' folder (None: latency not measured)."""
    generations = layout.generations(model)
    if not generations.is_file():
        return None
    paths[f"generations.{model}"] = generations
    prompt, completion = _tokens(generations)
    if (spec := spec_path(generations)).is_file():
        paths[f"generations_spec.{model}"] = spec
    recorded = (_json(spec).get("config") or {}).get("model") or {}
    prices = Prices.model_validate(recorded["prices"]) if recorded.get("prices") else None
    if (summary := summary_path(layout.judgments(judge, model))).is_file():
        paths[f"judge_summary.{model}"] = summary
    judges: dict[str, dict[str, Any]] = _json(summary).get("usage") or {}
    measured: dict[str, dict[str, Any]] = {}
    if ledgers is not None:
        totals = (int(prompt.sum()), int(completion.sum()))
        if found := _ledger_figures(_json(ledgers / f"{model}.json"), totals):
            measured[GENERATE] = found
        jurors = _json(ledgers / "judge" / judge / f"{model}.json").get("jurors") or {}
        for name, usage in judges.items():
            totals = (usage["prompt_tokens"], usage["completion_tokens"])
            if found := _ledger_figures(jurors.get(name), totals):
                measured[name] = found
    return RecordedUsage(prompt, completion, prices, judges, measured)


def _json(path: Path) -> dict[str, Any]:
    """The JSON object in `path`; empty when there is no such file."""
    if not path.is_file():
        return {}
    try:
        document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise InputError(path, f"not valid JSON ({e.msg})", line=e.lineno) from None
    return document


def _tokens(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Each generations row's prompt and completion tokens (0 where not recorded)."""
    schema = pa.schema([("usage", _TOKENS)])
    options = pa_json.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
    try:
        usage = pa_json.read_json(path, parse_options=options).column("usage").combine_chunks()
    except pa.ArrowInvalid as e:
        raise InputError(path, f"token usage not readable: {e}") from None
    prompt, completion = (usage.field(name).fill_null(0).to_numpy() for name in _TOKENS.names)
    return prompt, completion


def _ledger_figures(ledger: dict[str, Any] | None, totals: tuple[int, int]) -> dict[str, Any]:
    """Cache hits and latency quantiles of a ledger's calls (a cached call keeps its original
    latency); nothing when there is no ledger or its tokens are another run's."""
    items = (ledger or {}).get("items") or []
    tokens = (sum(i["prompt_tokens"] for i in items), sum(i["completion_tokens"] for i in items))
    if not items or tokens != totals:
        return {}
    latencies = [float(i["latency_s"]) for i in items if i["status"] == "ok"]
    return {
        "cached": sum(bool(i["cached"]) for i in items),
        "latency_p50_s": round(quantile(latencies, 0.5), 4) if latencies else None,
        "latency_p95_s": round(quantile(latencies, 0.95), 4) if latencies else None,
    }


def cost_records(
    systems: dict[str, tuple[str, str | None]],
    usage: dict[str, RecordedUsage],
    settings: Settings,
) -> list[dict[str, Any]]:
    """One record per leaderboard entry with recorded usage: `generate` and each judge model's
    tokens, cost and measured figures (leaderboard.json's `costs`)."""
    records = []
    for system, (model, _) in systems.items():
        if (found := usage.get(model)) is not None:
            seed = derive_seed(settings.seed, "cost", system)
            judges = {
                name: {**_judge_cost(u), **found.measured.get(name, NOT_MEASURED)}
                for name, u in sorted(found.judges.items())
            }
            records.append(
                {"model": system, GENERATE: _generate_cost(found, seed, settings), "judge": judges}
            )
    return records


def _generate_cost(found: RecordedUsage, seed: int, settings: Settings) -> dict[str, Any]:
    """Tokens and cost of the answers; cost per 1,000 questions is a mean over questions, with
    its bootstrap interval over questions."""
    prompt, completion = found.prompt_tokens, found.completion_tokens
    per_1k = "cost_per_1k_questions"
    record: dict[str, Any] = {
        "questions": int(prompt.size),
        "prompt_tokens": int(prompt.sum()),
        "completion_tokens": int(completion.sum()),
        **dict.fromkeys(("cost_usd", per_1k, f"{per_1k}_ci_low", f"{per_1k}_ci_high")),
        **found.measured.get(GENERATE, NOT_MEASURED),
    }
    if (price := found.prices) is not None and prompt.size:
        per_question = (prompt * price.input_per_mtok + completion * price.output_per_mtok) / 1e6
        interval = bootstrap_mean_interval(
            1000 * per_question,
            seed=seed,
            resamples=settings.resamples,
            confidence=settings.confidence,
        )
        record["cost_usd"] = round(float(per_question.sum()), 6)
        record[per_1k] = round(1000 * float(per_question.mean()), 6)
        if interval is not None:
            record[f"{per_1k}_ci_low"] = round(interval.low, 6)
            record[f"{per_1k}_ci_high"] = round(interval.high, 6)
    return record


def _judge_cost(usage: dict[str, Any]) -> dict[str, Any]:
    prices = Prices.model_validate(usage["prices"]) if usage.get("prices") else None
    cost = item_cost(prices, usage["prompt_tokens"], usage["completion_tokens"])
    figures = {k: usage[k] for k in ("calls", "prompt_tokens", "completion_tokens")}
    return figures | {"cost_usd": None if cost is None else round(cost, 6)}


def cost_points(
    board: Leaderboard, primary: str, records: list[dict[str, Any]]
) -> dict[str, tuple[float, float]]:
    """(generation cost per 1,000 questions, primary metric's mean) of each priced, scored entry."""
    points = {}
    for record in records:
        cost, cell = record[GENERATE]["cost_per_1k_questions"], board.get(record["model"], primary)
        if cost is not None and cell is not None and cell.mean is not None:
            points[record["model"]] = (float(cost), cell.mean)
    return points


def pareto_front(points: dict[str, tuple[float, float]], higher_is_better: bool) -> set[str]:
    """The models no other model beats on both (cost, score): as cheap or cheaper and as good
    or better, one of them strictly."""
    sign = 1.0 if higher_is_better else -1.0

    def beats(a: tuple[float, float], b: tuple[float, float]) -> bool:
        better = sign * a[1] >= sign * b[1]
        return a[0] <= b[0] and better and (a[0] < b[0] or sign * a[1] > sign * b[1])

    return {m for m, p in points.items() if not any(beats(q, p) for q in points.values())}


def csv_columns(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each entry's columns on its leaderboard.csv rows: generation tokens, cost and latency,
    and its judge models' cost together (empty: no judge calls recorded, or one has no price)."""
    columns = {}
    for record in records:
        g, judges = record[GENERATE], record["judge"].values()
        judge_costs = [j["cost_usd"] for j in judges]
        judged = None if None in judge_costs or not judge_costs else round(sum(judge_costs), 6)
        columns[record["model"]] = {
            **{f"generate_{k}": g[k] for k in ("prompt_tokens", "completion_tokens", "cost_usd")},
            **{k: g[k] for k in g if k.startswith("cost_per_1k") or k.startswith("latency")},
            "judge_cost_usd": judged,
        }
    return columns


def flat_figures(record: dict[str, Any]) -> dict[str, float]:
    """A record's numbers as MLflow and DVC metric names: `generate.<figure>` and
    `judge.<judge model>.<figure>` (figures without a value left out)."""
    parts = {GENERATE: record[GENERATE]} | {
        f"judge.{name}": figures for name, figures in record["judge"].items()
    }
    return {
        f"{part}.{name}": float(value)
        for part, figures in parts.items()
        for name, value in figures.items()
        if isinstance(value, int | float) and not isinstance(value, bool)
    }


COST_NOTE = (
    "Tokens and cost come from the recorded token usage and the model configs' prices; an "
    "answer or judge call served from the response cache counts its original tokens, once, "
    "and `cached` says how many were. Cost per 1,000 questions: the mean cost of a question "
    "x 1,000, with its bootstrap interval over questions. `cached` and latency (seconds a call "
    "took, p50 and p95; a cached call at its original latency) are measured by the run and "
    "read from its ledger: not reproducible, and `not measured` where no ledger matches."
)


def cost_table(records: list[dict[str, Any]], confidence: float) -> list[list[str]]:
    """Header and rows: each entry's generation, then each of its judge models."""
    header = ["model", "calls", "tokens in", "tokens out", "cost (USD)"]
    header += [f"per 1,000 questions [{100 * confidence:g}% CI]", "cached", "p50 (s)", "p95 (s)"]
    rows = []
    for record in records:
        g = record[GENERATE]
        per_1k = _usd(g["cost_per_1k_questions"])
        if g["cost_per_1k_questions_ci_low"] is not None:
            low, high = g["cost_per_1k_questions_ci_low"], g["cost_per_1k_questions_ci_high"]
            per_1k += f" [{_usd(low)}, {_usd(high)}]"
        rows.append([record["model"], str(g["questions"]), *_shared(g, per_1k)])
        for name, j in record["judge"].items():
            rows.append([f"↳ judge {name}", str(j["calls"]), *_shared(j, "–")])
    return [header, *rows]


def _shared(figures: dict[str, Any], per_1k: str) -> list[str]:
    measured = [
        "not measured" if figures[k] is None else f"{figures[k]:.3f}"
        for k in ("latency_p50_s", "latency_p95_s")
    ]
    cached = "not measured" if figures["cached"] is None else str(figures["cached"])
    tokens = [str(figures["prompt_tokens"]), str(figures["completion_tokens"])]
    return [*tokens, _usd(figures["cost_usd"]), per_1k, cached, *measured]


def _usd(value: float | None) -> str:
    if value is None:
        return "no price"
    return f"{value:,.2f}" if value >= 1 else f"{value:.4g}"
