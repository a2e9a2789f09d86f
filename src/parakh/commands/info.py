"""`parakh info`: the composed config and what each config group offers."""

from __future__ import annotations

import argparse

import yaml

from parakh.config import compose
from parakh.config.loading import GROUPS, available

HELP = "show the composed config and the available config names"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("overrides", nargs="*", help="Hydra overrides, e.g. model=smollm2")


def run(args: argparse.Namespace) -> int:
    cfg = compose(args.overrides)
    print(yaml.safe_dump(cfg.model_dump(mode="json"), sort_keys=False, allow_unicode=True))
    for group in (*GROUPS, "rubric", "prompt"):
        print(f"{group}: {', '.join(available(group))}")
    return 0
