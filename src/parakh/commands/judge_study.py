"""`parakh judge-study`: run every judge of a study on one dataset, then rank the judges.

    parakh judge-study liveqa_med --run --judge-url http://127.0.0.1:8080/v1 --judge-model-id m

Each judge is its own DVC experiment (`<study>-<judge>`) on the same dataset and models, so
only the judge stages and aggregate run per judge; then `parakh judges` ranks them
(docs/judge-chooser.md).
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import tempfile
from pathlib import Path

from parakh.commands import judges as judges_command
from parakh.commands.import_data import dvc_executable
from parakh.commands.protocol import (
    conf_overrides,
    exp_run,
    flow,
    list_named,
    models_matching,
    run_exp,
)
from parakh.config import compose
from parakh.config.judge_study import JudgeStudyConfig
from parakh.config.loading import load_named
from parakh.errors import ConfigError
from parakh.project import resolve

# under the list of studies `parakh judge-study` prints with no name
LIST_HINT = "`parakh judge-study <name>` prints its experiments; --run runs them and ranks."

HELP = "run several judges on one dataset, then rank them vs humans"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", help="a conf/judge_study/<name>.yaml name")
    parser.add_argument("--run", action="store_true", help="run the experiments, then rank")
    parser.add_argument(
        "--force", action="store_true", help="replace experiments of the same names (dvc -f)"
    )
    parser.add_argument(
        "--judge-url",
        help="an OpenAI-compatible base URL (e.g. http://127.0.0.1:8080/v1): adds the study's "
        "url_judges (your judge, and a jury with it)",
    )
    parser.add_argument(
        "--judge-model-id", help="the model name that server expects (default: the file's)"
    )


def study_judges(study: JudgeStudyConfig, url: str | None) -> list[str]:
    return [*study.judges, *(study.url_judges if url else [])]


def _judge_model(judge: str, study: JudgeStudyConfig) -> str | None:
    """The model file DVC tracks for the judge (params.yaml `judge_model`): its model, or a
    jury's last juror (the study lists the served judge last); None for reference metrics.
    Composing also checks the judge with the dataset and the study's keys of its file."""
    # `++`: a misspelt key reaches the schema, which names it
    keys = conf_overrides(study.conf, "judge", judge, prefix="++")
    cfg = compose([f"dataset={study.dataset}", f"judge={judge}", *keys])
    if cfg.judge.model is not None:
        return cfg.judge.model.name
    if cfg.judge.jury is not None:
        return cfg.judge.jury.models[-1]
    return None


def exp_run_commands(
    study: JudgeStudyConfig,
    url: str | None = None,
    model_id: str | None = None,
    force: bool = False,
) -> list[list[str]]:
    """One `dvc exp run` per judge, in the study's order; every name checked first."""
    if model_id is not None and url is None:
        raise ConfigError("--judge-model-id needs --judge-url (the server that model is on)")
    models = models_matching(study.models_glob, f"judge study '{study.name}'")
    commands = []
    for judge in study_judges(study, url):
        pairs = [f"datasets=[{study.dataset}]", f"models={flow(models)}", f"judge={judge}"]
        judge_model = _judge_model(judge, study)
        if judge_model is not None:
            pairs.append(f"judge_model={judge_model}")
        pairs += [f"{key}={flow(value)}" for key, value in study.conf.items()]
        if judge in study.url_judges:
            model_file = f"conf/model/{study.url_model}.yaml"
            pairs.append(f"{model_file}:base_url={url}")
            if model_id is not None:
                pairs.append(f"{model_file}:model_id={model_id}")
        commands.append(exp_run(f"{study.name}-{judge}", pairs, force))
    return commands


def run(args: argparse.Namespace) -> int:
    if args.name is None:
        return list_named("judge_study", JudgeStudyConfig, "description", LIST_HINT)
    study = load_named("judge_study", args.name, JudgeStudyConfig)
    commands = exp_run_commands(study, args.judge_url, args.judge_model_id, args.force)
    if study.needs:
        print(f"# first: {study.needs}")
    if study.url_judges and not args.judge_url:
        print(f"# add --judge-url URL to run {', '.join(study.url_judges)} as well")
    judges = study_judges(study, args.judge_url)
    for command in commands:
        print(shlex.join(command))
    print(shlex.join(["parakh", "judges", study.dataset, "--judges", ",".join(judges)]), flush=True)
    if not args.run:
        return 0
    reports = resolve("reports") / study.dataset
    with tempfile.TemporaryDirectory(prefix="parakh-judge-study-") as kept:
        for judge, command in zip(judges, commands, strict=True):
            print(f"\n$ {shlex.join(command)}", flush=True)
            run_exp(command, dvc_executable())
            shutil.copytree(reports / judge, Path(kept) / judge)
        # A `dvc exp run` starts from the committed workspace, so each experiment removed the
        # previous judge's reports/<dataset>/<judge>/ (kept in that experiment: `dvc exp apply`);
        # put the earlier ones back for `parakh judges`. The last judge's is the workspace's own.
        for judge in judges[:-1]:
            shutil.rmtree(reports / judge, ignore_errors=True)
            shutil.copytree(Path(kept) / judge, reports / judge)
    print()
    # a judge with nothing paired to the grades (say, reference metrics where the data has no
    # reference answers) is named under the table, not an error that hides the others
    return judges_command.write_table(study.dataset, judges, allow_unscored=True)
