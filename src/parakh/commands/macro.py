"""`parakh macro`: one metric averaged over datasets, each dataset counting once.

    parakh macro xquad_hi xquad_en                     # judge reference, its primary metric
    parakh macro xquad_hi xquad_en judge=reference metric=token_f1   # or --judge, --metric

The INDIC QA BENCHMARK scores with macro-averaged F1 (§3.1) and reports the average F1 across
its span-extraction datasets (Table 2); it does not spell out the weighting. Parakh takes a
mean over questions within each dataset, then the unweighted mean of those per-dataset means.
Each dataset's leaderboard (`dvc repro`) must exist; this reads its judge rows, so the interval
is a bootstrap over questions within each dataset. A model missing from a dataset gets no macro
figure. Writes reports/macro/<judge>/<metric>.md and .json.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from parakh.commands.grammar import split_overrides, take_overrides
from parakh.errors import ConfigError, InputError
from parakh.io import read_jsonl, write_json, write_text
from parakh.metrics.specs import WEIGHTED
from parakh.project import resolve
from parakh.report.files import read_leaderboard
from parakh.report.tables import markdown
from parakh.schema import Judgment
from parakh.stats.bootstrap import derive_seed, stratified_macro_interval

RESAMPLES = 1000
CONFIDENCE = 0.95

HELP = "one metric averaged over datasets, each dataset counting once"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "datasets",
        nargs="+",
        help="two or more datasets with a leaderboard, and judge=, metric=, seed= if wanted",
    )
    parser.add_argument("--judge", default="reference", help="the judge of those leaderboards")
    parser.add_argument("--metric", help="default: the leaderboards' primary metric")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")


def _scores(dataset: str, judge: str, model: str, metric: str) -> list[float]:
    path = resolve("data/processed") / dataset / "judge" / judge / f"{model}.jsonl"
    if not path.is_file():
        raise InputError(path, f"judge rows of model '{model}' not found")
    rows = read_jsonl(path, Judgment)
    return [
        r.score for r in rows if r.metric == metric and r.status == "ok" and r.score is not None
    ]


def macro_table(datasets: list[str], judge: str, metric: str | None, seed: int) -> dict[str, Any]:
    """Per model: each dataset's mean (from its leaderboard) and the macro mean with its
    stratified bootstrap interval; models ordered best first in the metric's direction."""
    hint = "run `dvc repro aggregate@{}` with judge={} first"
    boards = {
        d: read_leaderboard(resolve("reports"), d, judge, hint.format(d, judge)) for d in datasets
    }
    primaries = {b["primary_metric"] for b in boards.values()}
    metric = metric or (primaries.pop() if len(primaries) == 1 else None)
    if metric is None:
        raise ConfigError("the leaderboards rank by different metrics; give --metric")
    if metric == WEIGHTED:
        raise ConfigError("a macro average takes one metric, not the weighted aggregate")
    spec = next(b["metric_specs"].get(metric) for b in boards.values())
    if spec is None:
        raise ConfigError(f"metric '{metric}' is not in the leaderboard of {datasets[0]}")
    models = sorted({m for b in boards.values() for m in b["models"]})
    rows = []
    for model in models:
        means = {
            d: next(
                (c["mean"] for c in b["cells"] if c["model"] == model and c["metric"] == metric
                 and c["dimension"] == "all"),
                None,
            )
            for d, b in boards.items()
        }  # fmt: skip
        macro = None
        if all(model in b["models"] for b in boards.values()):
            strata = [_scores(d, judge, model, metric) for d in datasets]
            found = stratified_macro_interval(
                strata, seed=derive_seed(seed, "macro", model, metric, *datasets),
                resamples=RESAMPLES, confidence=CONFIDENCE,
            )  # fmt: skip
            if found is not None and all(strata):
                point, interval = found
                macro = {
                    "mean": round(point, 6),
                    "ci_low": None if interval is None else round(interval.low, 6),
                    "ci_high": None if interval is None else round(interval.high, 6),
                }
        rows.append({"model": model, "datasets": means, "macro": macro})
    sign = 1 if spec["direction"] == "higher" else -1
    rows.sort(
        key=lambda r: (r["macro"] is None, -sign * (r["macro"] or {}).get("mean", 0), r["model"])
    )
    return {
        "judge": judge, "metric": metric, "direction": spec["direction"], "datasets": datasets,
        "resamples": RESAMPLES, "confidence": CONFIDENCE, "seed": seed, "rows": rows,
    }  # fmt: skip


def render(table: dict[str, Any]) -> str:
    datasets = table["datasets"]
    lines = [
        f"# Macro average over datasets: `{table['metric']}`, judge `{table['judge']}`",
        "",
        f"Each dataset's mean over its questions, then their unweighted mean ({table['direction']}"
        f" is better); interval: {100 * table['confidence']:g}% bootstrap over questions within "
        f"each dataset, {table['resamples']} resamples, seed {table['seed']}.",
        "",
    ]
    rows = [["model", *datasets, "macro"]]
    for row in table["rows"]:
        means = [row["datasets"][d] for d in datasets]
        cells = ["–" if mean is None else f"{mean:.4g}" for mean in means]
        m = row["macro"]
        macro = "–" if m is None else f"{m['mean']:.4g} [{m['ci_low']:.4g}, {m['ci_high']:.4g}]"
        rows.append([row["model"], *cells, macro])
    return "\n".join([*lines, markdown(rows)]) + "\n"


def run(args: argparse.Namespace) -> int:
    args.datasets, overrides = split_overrides(args.datasets)
    taken = take_overrides(overrides, ("judge", "metric", "seed"))
    args.judge, args.metric = taken.get("judge", args.judge), taken.get("metric", args.metric)
    if "seed" in taken:
        if not taken["seed"].lstrip("-").isdigit():
            raise ConfigError(f"seed={taken['seed']}: the seed is a whole number")
        args.seed = int(taken["seed"])
    if len(args.datasets) < 2:
        raise ConfigError("a macro average needs two or more datasets")
    table = macro_table(args.datasets, args.judge, args.metric, args.seed)
    text = render(table)
    folder: Path = resolve("reports") / "macro" / args.judge
    write_json(folder / f"{table['metric']}.json", table)
    write_text(folder / f"{table['metric']}.md", text)
    print(text, end="")
    print(f"macro: -> {folder / table['metric']}.md")
    return 0
