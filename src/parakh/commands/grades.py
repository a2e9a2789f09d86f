"""`parakh grades pull`: human feedback from MLflow's trace pages as a grades file.

    parakh grades pull [--experiment NAME | --run ID] [--tracking-uri URI] [--dataset NAME] \\
        [--out human_grades.jsonl]

Reviewers grade a judged answer in the MLflow UI by adding feedback to its trace (logged by
aggregate with `tracking.genai=true`), named after a rubric metric, on the rubric's scale. The
file it writes is `aggregate.agreement.human_grades` input (docs/grading.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from parakh.config.aggregate import TrackingConfig
from parakh.config.loading import unknown_name_message
from parakh.errors import ConfigError
from parakh.io import write_jsonl
from parakh.project import resolve
from parakh.tracking.client import open_client, tracking_uri
from parakh.tracking.genai import GENAI_STORES
from parakh.tracking.human_feedback import human_grades, iter_traces, rubric_scales

HELP = "human grades given in MLflow's trace pages, as a grades file (pull)"
DEFAULT_OUT = "human_grades.jsonl"
NO_TRACES = (
    "aggregate logs each judged answer as a trace only with tracking.genai=true and a "
    "database-backed store or server: run `parakh aggregate tracking.genai=true` and have "
    "reviewers add feedback there (docs/grading.md)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    pull = actions.add_parser(
        "pull",
        help="write the human feedback on Parakh's traces as HumanGrade JSONL",
        description="Read every HUMAN feedback named after a rubric metric (or a metric the "
        "judge scored on that trace) from the traces aggregate logged with "
        "tracking.genai=true; the reviewer is the rater, the latest valid feedback per "
        "(trace, metric, reviewer) counts, and one not a number on the metric's scale is "
        "skipped and counted. LLM-judge assessments are never read.",
        epilog="Then: parakh aggregate aggregate.agreement.human_grades=<the file written>",
    )
    where = pull.add_mutually_exclusive_group()
    where.add_argument(
        "--experiment",
        metavar="NAME",
        help=f"experiment name (default: tracking.experiment, '{_default()}')",
    )
    where.add_argument(
        "--run", metavar="ID", help="only the traces of this run (a model or language run)"
    )
    pull.add_argument(
        "--tracking-uri",
        metavar="URI",
        help="default: MLFLOW_TRACKING_URI, else sqlite:///mlflow.db",
    )
    pull.add_argument(
        "--dataset", metavar="NAME", help="only traces of this dataset (needed if several)"
    )
    pull.add_argument(
        "--out",
        type=Path,
        metavar="PATH",
        help=f"grades file (default: {DEFAULT_OUT} in the project root)",
    )


def run(args: argparse.Namespace) -> int:
    uri = tracking_uri(args.tracking_uri)
    if not uri.startswith(GENAI_STORES):
        raise ConfigError(f"{uri} keeps no traces: {NO_TRACES}")
    if uri.startswith("sqlite:///") and not Path(uri.removeprefix("sqlite:///")).is_file():
        raise ConfigError(f"no MLflow store at {uri}: pass --tracking-uri")
    client = open_client(uri)
    experiment, where = _experiment(client, args, uri)
    traces = [
        t
        for t in iter_traces(client, experiment, args.run)
        if args.dataset is None or t.info.tags.get("dataset") == args.dataset
    ]
    if not traces:
        of = f" of dataset '{args.dataset}'" if args.dataset else ""
        raise ConfigError(f"no traces{of} in {where}: {NO_TRACES}")
    pulled = human_grades(traces, rubric_scales())
    if len(pulled.datasets) > 1:
        raise ConfigError(
            f"grades of datasets {', '.join(sorted(pulled.datasets))} in {where}: a grades file "
            "is one dataset's, pass --dataset"
        )
    out = args.out or resolve(DEFAULT_OUT)
    write_jsonl(out, pulled.grades)
    raters = {g.rater for g in pulled.grades}
    print(
        f"{len(pulled.grades)} grades from {len(pulled.traces)} traces and {len(raters)} "
        f"raters ({len(traces)} traces read) -> {out}"
    )
    for reason, count in sorted(pulled.skipped.items()):
        print(f"skipped {count}: {reason} (e.g. {pulled.example[reason]})", file=sys.stderr)
    if not pulled.grades and not pulled.skipped:
        print(
            "no human feedback named after a rubric metric: reviewers add it on a trace's "
            "Assessments pane (source HUMAN)",
            file=sys.stderr,
        )
    return 0


def _default() -> str:
    return TrackingConfig().experiment


def _experiment(client: Any, args: argparse.Namespace, uri: str) -> tuple[str, str]:
    """The experiment id to read and how to name it in messages."""
    from mlflow.exceptions import MlflowException

    if args.run:
        try:
            found = client.get_run(args.run)
        except MlflowException as e:
            raise ConfigError(f"no run '{args.run}' at {uri}: pass a run id from it") from e
        return str(found.info.experiment_id), f"run {args.run} at {uri}"
    name = args.experiment or _default()
    exp = client.get_experiment_by_name(name)
    if exp is None:
        names = [e.name for e in client.search_experiments()]
        raise ConfigError(f"{unknown_name_message('experiment', name, names)} (at {uri})")
    return str(exp.experiment_id), f"experiment '{name}' at {uri}"
