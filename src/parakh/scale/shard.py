"""Sharded generate and judge: which questions a shard takes (a hash of the id, so adding
questions moves no other one; docs/scale.md, "Sharded generate and judge", says why), and the
checks of `parakh merge-shards` before it writes, byte for byte, what a single run writes.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from parakh.backends.accounting import ItemAccount, summarize
from parakh.config.model import Prices
from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError, InputError
from parakh.hashing import sha256_text
from parakh.io import iter_json_rows, read_json_at, read_text, validate_row
from parakh.row_coverage import Coverage, Key, Where, check, duplicates_text, some_keys
from parakh.schema import Question
from parakh.stage_outputs import Layout, spec_path
from parakh.tracking.runspec import input_hashes

M = TypeVar("M", bound=BaseModel)
SHARD_FILE = re.compile(r"^(?P<stem>.+)\.shard-(?P<index>\d+)-of-(?P<count>\d+)\.jsonl$")


def shard_of(question_id: str, count: int) -> int:
    """The shard (0..count-1) a question belongs to: its id's sha256, modulo `count`."""
    return int(sha256_text(question_id)[:16], 16) % count


@dataclass(frozen=True)
class ShardSpec:
    """Shard `index` of `count`."""

    index: int
    count: int

    @classmethod
    def of(cls, cfg: ParakhConfig) -> ShardSpec | None:
        """The shard a stage run is (None: unsharded); ConfigError for an impossible spec."""
        index, count = cfg.shard, cfg.num_shards
        if index is None:
            if count is not None:
                raise ConfigError(
                    f"num_shards={count} without shard: run each shard with shard=<0..{count - 1}>"
                    f" num_shards={count}, then join them with `parakh merge-shards <stage> "
                    f"num_shards={count} ...`"
                )
            return None
        if count is None:
            raise ConfigError(f"shard={index} needs num_shards=<n>, the number of shards")
        if index >= count:
            raise ConfigError(
                f"shard={index} is out of range for num_shards={count}: shards are numbered "
                f"0 to {count - 1}"
            )
        return cls(index, count)

    def holds(self, question_id: str) -> bool:
        return shard_of(question_id, self.count) == self.index

    def __str__(self) -> str:
        return f"shard {self.index} of {self.count}"


def ledger_path(shard_file: Path) -> Path:
    """A shard's accounting ledger: `m.shard-0-of-4.jsonl` -> `m.shard-0-of-4.accounting.json`,
    beside the shard, so the merge finds it wherever the shard ran."""
    return shard_file.with_name(shard_file.name.rsplit(".", 1)[0] + ".accounting.json")


def shard_files(cfg: ParakhConfig, layout: Layout, output: Path, stage: str) -> list[Path]:
    """The `num_shards` shard files of `output` a merge joins: all present, none split another
    way; a ConfigError without `num_shards`, or with a `shard`."""
    if cfg.num_shards is None:
        raise ConfigError("merge-shards needs num_shards=<n>: the number of shards that were run")
    if cfg.shard is not None:
        raise ConfigError(f"merge-shards joins every shard: leave out shard={cfg.shard}")
    count = cfg.num_shards
    expected = [layout.shard(output, i, count) for i in range(count)]
    stem = output.name.rsplit(".", 1)[0]
    folder = expected[0].parent
    others: dict[int, list[Path]] = {}
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        match = SHARD_FILE.match(path.name)
        if match and match["stem"] == stem and int(match["count"]) != count:
            others.setdefault(int(match["count"]), []).append(path)
    missing = [i for i, path in enumerate(expected) if not path.is_file()]
    split = ", ".join(f"num_shards={n} ({len(paths)} files)" for n, paths in sorted(others.items()))
    if missing:
        i = missing[0]
        more = f" (also missing: shards {', '.join(map(str, missing[1:]))})" if missing[1:] else ""
        hint = (
            f"; found shards of this output split another way: {split}; merge with that num_shards"
            if others
            else ""
        )
        raise InputError(
            expected[i],
            f"shard {i} of {count} is missing{more}: run `python -m parakh.stages.{stage} "
            f"shard={i} num_shards={count} ...` with the overrides of the other shards{hint}",
        )
    if others:
        stale = next(iter(others.values()))[0]
        raise InputError(
            stale,
            f"the shards disagree on num_shards: merging {count} shards, but shards of the same "
            f"output split another way are there too: {split}. Remove the stale ones "
            f"({folder}/{stem}.shard-*-of-<n>.*) and merge again",
        )
    return expected


def plan_merge(
    files: Sequence[Path],
    model: type[M],
    question_ids: Sequence[str],
    *,
    section: Callable[[M], int] | None = None,
    key: Callable[[M], Key] | None = None,
    expected: Iterable[Key] | None = None,
    what: str = "question",
) -> Iterator[dict[str, Any]]:
    """The rows of every shard as read, ordered as a single run orders them: in question order
    within each `section` (judge: reference metrics, then rubric rows), a stable sort, since all
    rows of a question come from one shard. Every row is validated as `model` and checked first
    (its question hashes to its shard; its `key`, by default its question id, is one of
    `expected`, once), then read again one at a time, so a merge need not hold them."""
    count = len(files)
    position = {question_id: k for k, question_id in enumerate(question_ids)}
    ordered: list[tuple[int, int, int, int]] = []  # (section, position, shard, offset)

    def located() -> Iterator[tuple[Key, Where]]:
        for index, path in enumerate(files):
            for line, offset, obj in iter_json_rows(path):
                row = validate_row(model, obj, path, line)
                question_id = str(obj["question_id"])
                owner = shard_of(question_id, count)
                if owner != index and question_id in position:  # else: a key no one expects
                    raise InputError(
                        path,
                        f"question '{question_id}' belongs to shard {owner} of {count}, not "
                        f"shard {index}: the shards overlap (split with another num_shards?); "
                        "re-run it",
                        line=line,
                    )
                place = position.get(question_id, -1)
                ordered.append((section(row) if section else 0, place, index, offset))
                yield ((question_id,) if key is None else key(row)), Where(path, line)

    wanted = [(i,) for i in question_ids] if expected is None else expected
    _check_shard_coverage(files, check(wanted, located()), what)
    ordered.sort()
    return _read_again(files, [(index, offset) for _, _, index, offset in ordered])


def _read_again(files: Sequence[Path], places: list[tuple[int, int]]) -> Iterator[dict[str, Any]]:
    """The row at each (shard, byte offset) of `places`, in order."""
    with contextlib.ExitStack() as stack:
        handles = [stack.enter_context(path.open("rb")) for path in files]
        for index, offset in places:
            yield read_json_at(handles[index], offset)


def _check_shard_coverage(files: Sequence[Path], coverage: Coverage, what: str) -> None:
    """A key twice (in one shard: a shard is one run's rows), a key no one expects, or an
    expected key without a row: an InputError naming the shard file, and the line."""
    count = len(files)
    if coverage.duplicates:
        places = next(iter(coverage.duplicates.values()))
        raise InputError(
            places[0].path,
            f"{duplicates_text(coverage, what)}: a shard holds one row per {what}; its rows "
            "were written twice (appended to?): re-run it",
        )
    if coverage.unexpected:
        where = next(iter(coverage.unexpected.values()))
        raise InputError(
            where.path,
            f"{what} {some_keys(list(coverage.unexpected), 1)} is not one this run writes: the "
            "shard ran with another config; re-run it",
            line=where.line,
        )
    if coverage.missing:
        owner = shard_of(coverage.missing[0][0], count)
        raise InputError(
            files[owner],
            f"no row for {what} {some_keys(coverage.missing, 1)}: shard {owner} of {count} ran "
            "on other questions or another config, or was cut short; re-run it",
        )


def _differences(a: Any, b: Any, prefix: str = "") -> list[str]:
    """Dotted keys at which two JSON values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in sorted(set(a) | set(b), key=str):
            name = f"{prefix}.{key}" if prefix else str(key)
            out += [name] if key not in a or key not in b else _differences(a[key], b[key], name)
        return out
    return [] if a == b else [prefix or "(value)"]


def merged_run_spec(
    files: Sequence[Path],
    *,
    config: Mapping[str, Any],
    inputs: Mapping[str, Path],
    ignore: Collection[str] = (),
) -> dict[str, Any]:
    """The run spec every shard wrote, less its `shard` entry: the one a single run writes.

    Each shard's spec must agree with shard 0's; their config (less the `ignore`d keys, e.g. a
    backend identity the merge cannot compute without loading the model) must be `config`, and
    their input hashes those of `inputs` now."""
    count = len(files)
    agreed: dict[str, Any] | None = None
    for index, path in enumerate(files):
        spec_file = spec_path(path)
        if not spec_file.is_file():
            raise InputError(spec_file, f"no run spec beside shard {index} of {count}: re-run it")
        spec = json.loads(read_text(spec_file))
        shard = spec.get("config", {}).pop("shard", None)
        if shard != {"index": index, "count": count}:
            raise InputError(spec_file, f"records shard {shard}, not shard {index} of {count}")
        if agreed is None:
            agreed = spec
        elif spec != agreed:
            where = ", ".join(_differences(agreed, spec)[:5])
            raise InputError(
                spec_file,
                f"shard {index} ran with another config or on other inputs than shard 0 "
                f"(they differ at {where}): re-run the shards with the same overrides",
            )
    assert agreed is not None
    expected = {k: v for k, v in json.loads(json.dumps(dict(config))).items() if k not in ignore}
    recorded = {k: v for k, v in agreed["config"].items() if k not in ignore}
    if recorded != expected:
        where = ", ".join(f"config.{d}" for d in _differences(recorded, expected)[:5])
        raise ConfigError(
            f"the shards ran with another config than this merge's (they differ at {where}): "
            "merge with the overrides the shards ran with"
        )
    now = input_hashes(dict(inputs))
    if agreed["inputs"] != now:
        changed = ", ".join(_differences(agreed["inputs"], now))
        raise InputError(
            spec_path(files[0]),
            f"the shards ran on inputs that have changed since ({changed}): re-run them",
        )
    return agreed


def merge_accounting(
    files: Sequence[Path], questions: Sequence[Question], prices: Prices | None
) -> tuple[dict[str, Any], list[ItemAccount]]:
    """One ledger for the merged generations: the shards' items in question order, totals over
    all of them; `wall_s` is the sum of the shards' wall times (the work done, whether the
    shards ran one after another or at once), each shard's in `shard_wall_s`."""
    items: dict[str, list[ItemAccount]] = {}  # a question's samples' items in order
    walls: list[float] = []
    truncated = 0
    ledgers = [ledger_path(path) for path in files]
    for index, ledger in enumerate(ledgers):
        if not ledger.is_file():
            raise InputError(ledger, f"no accounting ledger beside shard {index}: re-run it")
        document = json.loads(read_text(ledger))
        walls.append(float(document["summary"]["wall_s"]))
        truncated += int(document["summary"]["truncated_prompts"])
        for item in document["items"]:
            items.setdefault(item["question_id"], []).append(ItemAccount(**item))
    for q in questions:
        if q.id not in items:
            ledger = ledgers[shard_of(q.id, len(files))]
            raise InputError(ledger, f"no item for question '{q.id}': re-run this shard")
    ordered = [item for q in questions for item in items[q.id]]
    summary = summarize(ordered, wall_s=sum(walls), prices=prices, truncated=truncated)
    summary["shards"] = len(files)
    summary["shard_wall_s"] = walls
    return summary, ordered
