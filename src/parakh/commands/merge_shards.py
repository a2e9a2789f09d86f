"""`parakh merge-shards`: join the shards of a sharded generate or judge run.

    python -m parakh.stages.generate -m shard=0,1,2,3 num_shards=4 model=gpt-4o
    parakh merge-shards generate num_shards=4 model=gpt-4o
    parakh merge-shards judge num_shards=4 model=gpt-4o judge=smoke

Takes the overrides the shards ran with (less `shard`) and writes, byte for byte, what one
unsharded run writes; what it checks first is in `parakh.scale.shard` and `parakh.row_coverage`.
"""

from __future__ import annotations

import argparse
import importlib

from parakh.config import compose

MERGEABLE = ("generate", "judge")

HELP = "join the shards of a sharded generate or judge run"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("stage", choices=MERGEABLE, help="the stage whose shards to join")
    parser.add_argument(
        "overrides",
        nargs="*",
        help="Hydra overrides the shards ran with, and num_shards=n (e.g. model=gpt-4o)",
    )


def run(args: argparse.Namespace) -> int:
    cfg = compose(args.overrides)
    importlib.import_module(f"parakh.stages.{args.stage}").merge_task(cfg)
    return 0
