"""One command-line grammar for the `parakh` subcommands, the one the stages speak.

Stages take Hydra overrides (`dataset=demo judge=smoke 'models=[a,b]'`); the subcommands take
the same where they read the same settings: `key=value` words, lists written the Hydra way
(`[em,f1]`, also `em,f1`), and one output flag, `--out`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from parakh.errors import ConfigError


def list_value(text: str) -> list[str]:
    """`[em,f1]`, `[em, f1]`, `em,f1` or `em` -> ['em', 'f1']; quotes around items dropped."""
    inner = text.strip()
    if inner.startswith("[") and inner.endswith("]"):
        inner = inner[1:-1]
    return [item.strip().strip("'\"") for item in inner.split(",") if item.strip()]


def add_out(parser: argparse.ArgumentParser, help_text: str) -> None:
    """`--out PATH`, the one name every command gives its output."""
    parser.add_argument("--out", type=Path, default=None, help=help_text)


def split_overrides(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """(plain words, `key=value` overrides): an option taking several values (`--languages hi
    ta`) stops at the first override the way a user reads the line, not argparse's way."""
    plain = [w for w in words if "=" not in w]
    return plain, [w for w in words if "=" in w]


def take_overrides(overrides: Sequence[str], known: Sequence[str]) -> dict[str, str]:
    """{key: value} of `key=value` words whose key is one of `known`; any other key is an error
    naming the keys this command takes."""
    taken: dict[str, str] = {}
    for word in overrides:
        key, sep, value = word.partition("=")
        if not sep or key not in known:
            raise ConfigError(
                f"{word!r}: this command takes {', '.join(f'{k}=' for k in known)} "
                "(Hydra override syntax)"
            )
        taken[key] = value
    return taken
