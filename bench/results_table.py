"""The rows of docs/results.md, read from a project's leaderboards and checked against MLflow.

    python bench/results_table.py --root . cataractbot:reference cataractbot:smoke nomiracl:nomiracl

For each (dataset, judge) it reads reports/<dataset>/<judge>/leaderboard.json, prints the top
rows of the overall ranking on the primary metric (markdown), and checks that every figure it
printed equals the metric its model's overall MLflow run (`tags.language = 'all'`, plain names:
`<metric>`, `<metric>_ci_low`, ...; parakh.tracking.metric_names) logged. It exits 1 on a
mismatch or a missing run. Results go to bench/results/readme_results.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from parakh.io import write_json
from parakh.report.files import ReportFiles
from parakh.tracking.client import open_client, tracking_uri
from parakh.tracking.metric_names import ALL, plain_metric_name


def overall(board: dict[str, Any], metric: str) -> dict[str, dict[str, Any]]:
    return {
        c["model"]: c for c in board["cells"] if c["metric"] == metric and c["dimension"] == "all"
    }


def ranked_rows(board: dict[str, Any], top: int) -> list[dict[str, Any]]:
    primary = board["primary_metric"]
    ranks = {r["model"]: r for r in board["ranks"] if r["metric"] == primary}
    cells = overall(board, primary)
    order = [m for m in sorted(ranks, key=lambda m: (ranks[m]["rank"], m)) if m in cells]
    return [
        {
            "model": m,
            "rank": ranks[m]["rank"],
            "rank_low": ranks[m]["rank_low"],
            "rank_high": ranks[m]["rank_high"],
            **{k: cells[m][k] for k in ("mean", "ci_low", "ci_high", "n", "errors", "invalid")},
        }
        for m in order[:top]
    ]


def logged_metrics(client: Any, experiment: str, dataset: str, judge: str) -> dict[str, dict]:
    """The newest overall run per model for (dataset, judge): model -> metrics."""
    found = client.get_experiment_by_name(experiment)
    if found is None:
        return {}
    runs = client.search_runs(
        [found.experiment_id],
        filter_string=(
            f"tags.dataset = '{dataset}' and tags.judge = '{judge}' and tags.language = '{ALL}'"
        ),
        order_by=["attributes.start_time DESC"],
    )
    out: dict[str, dict] = {}
    for run in runs:
        model = run.data.tags.get("model")
        if model and model not in out:
            out[model] = run.data.metrics
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", nargs="+", help="dataset:judge")
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--experiment", default="parakh")
    parser.add_argument("--tracking-uri", default=None)
    parser.add_argument("--out", type=Path, default=Path("bench/results/readme_results.json"))
    args = parser.parse_args()
    uri = args.tracking_uri or tracking_uri(f"sqlite:///{(args.root / 'mlflow.db').resolve()}")
    client = open_client(uri)
    report: dict[str, Any] = {}
    failures = 0
    for pair in args.pairs:
        dataset, judge = pair.split(":")
        files = ReportFiles(args.root / "reports" / dataset / judge)
        board = json.loads(files.leaderboard_json.read_text(encoding="utf-8"))
        primary = board["primary_metric"]
        rows = ranked_rows(board, args.top)
        logged = logged_metrics(client, args.experiment, dataset, judge)
        checked = 0
        for row in rows:
            metrics = logged.get(row["model"])
            if metrics is None:
                print(f"{pair}: no MLflow run for {row['model']}", file=sys.stderr)
                failures += 1
                continue
            for figure in ("mean", "ci_low", "ci_high", "n"):
                name = plain_metric_name(primary, figure)
                if row[figure] is None:
                    continue
                if metrics.get(name) != float(row[figure]):
                    print(
                        f"{pair} {row['model']} {name}: leaderboard {row[figure]} != "
                        f"MLflow {metrics.get(name)}",
                        file=sys.stderr,
                    )
                    failures += 1
                checked += 1
        report[pair] = {"primary_metric": primary, "rows": rows, "mlflow_checked": checked}
        print(f"\n{dataset}, judge {judge}: {primary} ({checked} figures equal in MLflow)")
        print("| rank | model | " + primary + " [95% CI] | n | err | inv |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            interval = f"{r['rank']}" + (
                f" ({r['rank_low']}–{r['rank_high']})" if r["rank_low"] != r["rank_high"] else ""
            )
            figure = (
                "–"
                if r["mean"] is None
                else f"{r['mean']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
            )
            print(
                f"| {interval} | {r['model']} | {figure} | {r['n']} | {r['errors']} | "
                f"{r['invalid']} |"
            )
    write_json(args.out, report)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
