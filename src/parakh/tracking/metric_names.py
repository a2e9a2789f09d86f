"""The names under which leaderboard figures are MLflow metrics, and which run holds which.

Three views of one leaderboard, so that no run holds a wall of keys:

- a model's run holds what `metrics.json` holds (DVC metrics): the mean of every metric per
  language and overall, `<metric>.<language>` and `<metric>.all`, and its cost and latency
  (`generate.<figure>`, `judge.<judge model>.<figure>`, `costs.flat_figures`);
- a (model, language) run holds that language's leaderboard row under plain names:
  `<metric>`, `<metric>_ci_low`, `<metric>_ci_high`, `<metric>_n`, and on the `all` run the
  primary metric's rank interval (`rank`, `rank_low`, `rank_high`); filtering runs by the
  `language` tag and sorting by one of these is that language's leaderboard;
- every figure of every cell (category and domain slices, invalid/error/skipped counts) and
  every rank interval, named by `cell_metric_name`, sits in the model run's tables; the sweep
  run holds paired tests and judge-human agreement (`sweep_metrics`).
"""

from __future__ import annotations

import re
from typing import Any

from parakh.hashing import sha256_text
from parakh.report.costs import NOT_MEASURED, flat_figures

CELL_FIGURES = ("mean", "percent", "ci_low", "ci_high", "n", "invalid", "errors", "skipped")
RUN_FIGURES = ("mean", "ci_low", "ci_high", "n")  # the figures a (model, language) run holds
ALL = "all"
# What holds the figures -> metric name -> value: "sweep", "<model>" (its run's metrics),
# "<model>/<language>" (a language run's), "<model>/cells" (its run's leaderboard tables)
Figures = dict[str, dict[str, float]]
_UNSAFE = re.compile(r"[^A-Za-z0-9_\-. /:]")


def safe_name(text: str) -> str:
    """`text` with characters MLflow does not allow in metric names replaced by `_`, plus a
    short hash of the original when anything was replaced, so that two names differing only
    in such characters (two categories in Devanagari) never collide."""
    safe = _UNSAFE.sub("_", text)
    return safe if safe == text else f"{safe}_{sha256_text(text)[:6]}"


def cell_metric_name(metric: str, dimension: str, value: str, figure: str = "mean") -> str:
    """The name of one leaderboard figure in the model run's tables (and, for means by
    language, its metrics).

    `<metric>.all`, `<metric>.<language>`, `<metric>.category.<c>`, `<metric>.domain.<d>`;
    figures other than the mean get a suffix (`.ci_low`, `.n`, `.invalid`, ...).
    """
    metric, value = safe_name(metric), safe_name(value)  # the overall cell's value is `all`
    sliced = dimension not in (ALL, "language")
    base = f"{metric}.{dimension}.{value}" if sliced else f"{metric}.{value}"
    return base if figure == "mean" else f"{base}.{figure}"


def plain_metric_name(metric: str, figure: str = "mean") -> str:
    """A (model, language) run's name of a figure: `chrf`, `chrf_ci_low`, `chrf_n`."""
    base = safe_name(metric)
    return base if figure == "mean" else f"{base}_{figure}"


def cell_figures(
    cells: list[dict[str, Any]], ranks: list[dict[str, Any]], model: str
) -> dict[str, float]:
    """Every figure of one model's leaderboard cells and rank intervals, by `cell_metric_name`
    (`rank.<metric>`, `.low`, `.high` for ranks): what the model run's tables hold."""
    out: dict[str, float] = {}
    for c in cells:
        if c["model"] != model:
            continue
        for figure in CELL_FIGURES:
            if c[figure] is not None:
                name = cell_metric_name(c["metric"], c["dimension"], c["value"], figure)
                out[name] = float(c[figure])
    for r in ranks:
        if r["model"] == model:
            base = f"rank.{safe_name(r['metric'])}"
            out[base] = float(r["rank"])
            out[f"{base}.low"] = float(r["rank_low"])
            out[f"{base}.high"] = float(r["rank_high"])
    return out


def model_run_metrics(cells: list[dict[str, Any]], model: str) -> dict[str, float]:
    """A model run's metrics: the mean of each metric by language and overall, as
    `metrics.json` holds them (cells without a mean left out)."""
    return {
        cell_metric_name(c["metric"], c["dimension"], c["value"]): float(c["mean"])
        for c in cells
        if c["model"] == model and c["dimension"] in (ALL, "language") and c["mean"] is not None
    }


def languages_of(cells: list[dict[str, Any]], model: str) -> list[str]:
    """`all` and the languages of a model's cells: its (model, language) runs."""
    found = {c["value"] for c in cells if c["model"] == model and c["dimension"] == "language"}
    return [ALL, *sorted(found)]


def language_run_metrics(
    cells: list[dict[str, Any]],
    ranks: list[dict[str, Any]],
    model: str,
    language: str,
    primary: str,
) -> dict[str, float]:
    """A (model, language) run's metrics under plain names (`language='all'`: overall)."""
    dimension = ALL if language == ALL else "language"
    out: dict[str, float] = {}
    for c in cells:
        if c["model"] != model or c["dimension"] != dimension or c["value"] != language:
            continue
        for figure in RUN_FIGURES:
            if c[figure] is not None:
                out[plain_metric_name(c["metric"], figure)] = float(c[figure])
    if language == ALL:
        for r in ranks:
            if r["model"] == model and r["metric"] == primary:
                out["rank"] = float(r["rank"])
                out["rank_low"] = float(r["rank_low"])
                out["rank_high"] = float(r["rank_high"])
    return out


def sweep_metrics(
    paired: list[dict[str, Any]], agreement: list[dict[str, Any]]
) -> dict[str, float]:
    """Paired tests, judge-human and inter-grader agreement, by MLflow name, for the sweep's
    parent run."""
    out: dict[str, float] = {}
    for p in paired:
        pair = f"{safe_name(p['model_a'])} vs {safe_name(p['model_b'])}"
        base = f"paired.{safe_name(p['metric'])}.{pair}"
        for figure in ("n", "difference", "ci_low", "ci_high", "p_value", "p_holm"):
            if p[figure] is not None:
                out[f"{base}.{figure}"] = float(p[figure])
    for a in agreement:
        # `agreement.<metric>` for a grades file, `agreement.answers.<metric>` for curated
        # grades of answers (paired by answer text)
        source = a.get("source", "grades")
        prefix = "agreement" if source == "grades" else f"agreement.{safe_name(source)}"
        base = f"{prefix}.{safe_name(a['metric'])}"
        slices = {"all": a["overall"], **a["by_language"]}
        slices |= {f"model.{model}": stats for model, stats in a.get("by_model", {}).items()}
        if inter := a.get("inter_grader"):  # the graders' agreement with each other
            slices["inter_grader"] = {f: v for f, v in inter.items() if f != "graders"}
        ranking = a.get("ranking")
        if ranking:  # Kendall's tau of the models' order by judge and by humans
            slices["ranking"] = {f: ranking[f] for f in ("n_models", "spearman", "kendall_tau")}
            slices["ranking"]["intervals"] = ranking.get("intervals", {})
        for language, stats in slices.items():
            for figure, value in stats.items():
                if figure == "intervals":
                    for name, (low, high) in value.items():
                        out[f"{base}.{safe_name(language)}.{name}.ci_low"] = float(low)
                        out[f"{base}.{safe_name(language)}.{name}.ci_high"] = float(high)
                elif value is not None:
                    out[f"{base}.{safe_name(language)}.{figure}"] = float(value)
    return out


def measured(name: str) -> bool:
    """A figure the run measured (cache hits, latency): not rebuilt from the recorded inputs."""
    return name.rsplit(".", 1)[-1] in NOT_MEASURED


def figures_of(document: dict[str, Any], models: list[str]) -> Figures:
    """Every figure of a leaderboard document, by where MLflow holds it and under what name."""
    cells, ranks = document["cells"], document["ranks"]
    primary = document.get("primary_metric", "")
    costs = {c["model"]: c for c in document.get("costs", [])}
    out: Figures = {}
    for m in models:
        out[m] = model_run_metrics(cells, m)
        if m in costs:  # as metrics.json's `cost_and_latency` holds them
            out[m] |= {safe_name(k): v for k, v in flat_figures(costs[m]).items()}
        for language in languages_of(cells, m):
            out[f"{m}/{language}"] = language_run_metrics(cells, ranks, m, language, primary)
        out[f"{m}/cells"] = cell_figures(cells, ranks, m)
    out["sweep"] = sweep_metrics(document["paired"], document.get("agreement", []))
    return out
