"""`parakh merge-shards`: join the shards of a sharded generate or judge run.

    python -m parakh.stages.generate -m shard=0,1,2,3 num_shards=4 model=gpt-4o
    parakh merge-shards generate num_shards=4 model=gpt-4o
    parakh merge-shards judge num_shards=4 model=gpt-4o judge=smoke

Takes the overrides the shards ran with (less `shard`) and writes the output, run spec and
summary or ledger that one unsharded run writes, byte for byte; it fails, naming the file, when
a shard is missing, ran with another config or on inputs changed since, when the shards
overlap or disagree on num_shards, or when a row's key (question; judge: question and metric)
is there twice, in one shard or across shards, or not at all (naming the line and the key).
The judge's merge reads the shards and writes the rows one at a time (`plan_merge`), so its
memory holds each row's key and place, not the rows. See `parakh.scale.shard` and
`parakh.row_coverage`.
"""

from __future__ import annotations

import argparse
import importlib

from parakh.config import compose

MERGEABLE = ("generate", "judge")


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
