"""`parakh replay-models`: one replay model config per model named in a stored-answers file.

    parakh replay-models nomiracl            # conf/model/nomiracl-<model>.yaml, 11 models
    parakh replay-models liveqa_judgments    # conf/model/liveqa-<source>.yaml, 9 sources
    parakh replay-models --answers answers.csv --prefix mine [--model-field model]

A preset knows where a dataset keeps its stored answers and how to read them (both read
curate's output, so curate runs first); flags override it, or describe any flat file. Each
model value in the file gets `conf/model/<prefix>-<value>.yaml`.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from importlib.resources import files
from typing import Any

import yaml

from parakh.backends.replay import csv_rows, field_at
from parakh.commands.grammar import add_out
from parakh.config.model import ReplayModel
from parakh.errors import ConfigError
from parakh.io import iter_json_objects, write_text
from parakh.project import conf_dir, resolve

PRESETS: dict[str, dict[str, Any]] = yaml.safe_load(
    files("parakh.commands").joinpath("replay_presets.yaml").read_bytes()
)

_FLAGS = (
    "answers",
    "prefix",
    "question_id_field",
    "question_id_template",
    "response_field",
    "model_field",
    "responses_field",
    "duplicates",
    "unknown_ids",
)

HELP = "write replay model configs for a stored-answers file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("preset", nargs="?", choices=sorted(PRESETS), help="a known dataset")
    parser.add_argument("--answers", help="the answers file, relative to the project root")
    parser.add_argument("--prefix", help="config names are <prefix>-<model value>")
    parser.add_argument("--question-id-field")
    parser.add_argument("--question-id-template", help="e.g. '{query_id}-{language}'")
    parser.add_argument("--response-field")
    parser.add_argument("--model-field")
    parser.add_argument("--responses-field", help="JSONL: a {model: response} object per row")
    parser.add_argument("--duplicates", choices=["error", "first"])
    parser.add_argument("--unknown-ids", choices=["error", "ignore"])
    add_out(parser, "folder for the configs (default conf/model)")
    parser.add_argument("--force", action="store_true", help="overwrite configs that differ")


def config_name(prefix: str, value: str) -> str:
    """A Hydra-safe config name: lower case letters, digits, dots and dashes."""
    slug = re.sub(r"[^a-z0-9.]+", "-", value.lower()).strip("-.")
    if not slug:
        raise ConfigError(f"model value {value!r} gives an empty config name")
    return f"{prefix}-{slug}"


def model_values(settings: dict[str, Any]) -> list[str]:
    """The model values the answers file names, sorted."""
    label = settings["answers"]
    path = resolve(label)
    if not path.is_file():
        hint = f"; {settings['missing_hint']}" if settings.get("missing_hint") else ""
        raise ConfigError(f"{label}: answers file not found (looked at {path}){hint}")
    if label.lower().endswith(".csv"):
        rows = csv_rows(path, label, [])
    else:
        rows = iter_json_objects(path, label)
    nested = settings.get("responses_field")
    column = settings.get("model_field") or "model"
    values: set[str] = set()
    for _, row in rows:
        if nested:
            outputs = field_at(row, nested)
            if isinstance(outputs, dict):
                values.update(str(key) for key in outputs)
        elif field_at(row, column) is not None:
            values.add(str(field_at(row, column)))
    if not values:
        raise ConfigError(f"{label}: no model values found in '{nested or column}'")
    return sorted(values)


def render(settings: dict[str, Any], value: str) -> tuple[str, str]:
    """(config name, YAML text) of the replay model that takes `value`."""
    name = config_name(settings["prefix"], value)
    document: dict[str, Any] = {
        "name": name,
        "backend": "replay",
        "description": settings.get("description", "{value}, replayed").format(value=value),
        **{k: settings[k] for k in ("answers", *_FLAGS[2:]) if settings.get(k) is not None},
        "model_value": value,
    }
    ReplayModel.model_validate(document)  # what we write must load
    comment = settings.get("comment", "Stored answers of {value}, replayed.").format(value=value)
    lines = textwrap.wrap(comment, 96, break_long_words=False, break_on_hyphens=False)
    header = "".join(f"# {line}\n" for line in lines)
    header += "# Written by `parakh replay-models`; rerun it rather than editing by hand.\n"
    return name, header + yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=96)


def run(args: argparse.Namespace) -> int:
    settings: dict[str, Any] = dict(PRESETS[args.preset]) if args.preset else {}
    settings |= {flag: getattr(args, flag) for flag in _FLAGS if getattr(args, flag) is not None}
    for needed in ("answers", "prefix"):
        if not settings.get(needed):
            raise ConfigError(f"give a preset ({', '.join(sorted(PRESETS))}) or --{needed}")
    folder = args.out or conf_dir() / "model"
    written = []
    for value in model_values(settings):
        name, text = render(settings, value)
        path = folder / f"{name}.yaml"
        if path.exists() and path.read_text(encoding="utf-8") != text and not args.force:
            raise ConfigError(f"{path} exists with other content; pass --force to overwrite")
        write_text(path, text)
        written.append(name)
    print(f"replay-models: {len(written)} configs in {folder}: {', '.join(written)}")
    return 0
