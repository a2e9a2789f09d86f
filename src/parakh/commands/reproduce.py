"""`parakh reproduce`: rebuild a leaderboard from an MLflow run or a DVC experiment and check
that every number comes out identical; exits 1 listing the first differences if any differs.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path

from parakh.commands.grammar import add_out, take_overrides
from parakh.project import project_root, resolve
from parakh.tracking.reproduce import from_dvc, from_mlflow

SHOWN_DIFFERENCES = 20

HELP = "rebuild a leaderboard from an MLflow run or DVC experiment"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--mlflow-run", metavar="RUN_ID", help="a sweep (parent) or model run id")
    source.add_argument(
        "--dvc-exp", metavar="NAME", help="a DVC experiment name or any git revision"
    )
    parser.add_argument(
        "overrides",
        nargs="*",
        metavar="key=value",
        help="dataset=<name> and judge=<name> of the DVC leaderboard (default: demo, and "
        "params.yaml's judge at that revision); tracking.uri=<uri> for MLflow (default as for "
        "aggregate)",
    )
    add_out(parser, "folder for the rebuilt leaderboard files")


def run(args: argparse.Namespace) -> int:
    settings = take_overrides(args.overrides, ("dataset", "judge", "tracking.uri"))
    name = f"mlflow-{args.mlflow_run}" if args.mlflow_run else f"dvc-{args.dvc_exp}"
    folder = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:80]
    output = args.out or resolve("reports") / "reproduced" / folder
    with tempfile.TemporaryDirectory(prefix="parakh-reproduce-") as tmp:
        if args.mlflow_run:
            from parakh.tracking.client import tracking_uri

            uri = tracking_uri(settings.get("tracking.uri"))
            reproduction = from_mlflow(args.mlflow_run, uri, Path(tmp), output)
        else:
            dataset, judge = settings.get("dataset") or "demo", settings.get("judge")
            reproduction = from_dvc(project_root(), args.dvc_exp, dataset, judge, Path(tmp), output)
    print(f"reproduce: {reproduction.source}")
    print(f"reproduce: rebuilt leaderboard -> {output}")
    if reproduction.compared > 0 and not reproduction.differences:
        print(f"reproduce: all {reproduction.compared} figures identical")
        return 0
    print(f"reproduce: {len(reproduction.differences)} of {reproduction.compared} figures differ:")
    for d in reproduction.differences[:SHOWN_DIFFERENCES]:
        print(f"  {d.run}: {d.name}: rebuilt {d.expected}, recorded {d.recorded}")
    return 1
