"""Dataset adapters, chosen by `dataset.adapter` in config among the entry points of group
`parakh.adapters` (`parakh.plugins`): Parakh's own and those of installed plugin packages.

An adapter is `load(root, options, sink)`: it reads the source at `root` and adds canonical rows
to the `RowSink`, each inside `sink.guard(...)`. Its options come from `dataset.options` and are
validated by the schema its `options` parameter is annotated with, which rejects unknown keys.
Every row is held to the length limits and character rules of `parakh.datasets.limits` as it
is added.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, get_type_hints

from pydantic import ValidationError

from parakh import plugins
from parakh.config.base import Strict
from parakh.config.dataset import LengthLimits
from parakh.datasets.limits import OverLength, TextRules
from parakh.datasets.rows import LoadedDataset, RowSink
from parakh.errors import ConfigError, first_field_error


class AdapterOptions(Strict):
    """Options of one adapter (`dataset.options`); each adapter subclasses it."""


AdapterFn = Callable[[Path, Any, RowSink], None]


def adapter_names() -> list[str]:
    return plugins.names("adapters")


@cache
def spec(name: str) -> tuple[AdapterFn, type[AdapterOptions]]:
    """The adapter registered as `name` (entry-point group `parakh.adapters`), and the options
    class its `options` parameter is annotated with."""
    load = plugins.load("adapters", name)
    options = get_type_hints(load).get("options") if callable(load) else None
    if not (isinstance(options, type) and issubclass(options, AdapterOptions)):
        raise ConfigError(
            f"dataset adapter '{name}' ({load!r}) is not a function "
            "(root, options: <an AdapterOptions subclass>, sink)"
        )
    return load, options


def parse_options(name: str, options: Mapping[str, Any] | None) -> AdapterOptions:
    """Validate `dataset.options` against the adapter's schema, naming the offending key."""
    schema = spec(name)[1]
    try:
        return schema.model_validate(dict(options or {}))
    except ValidationError as e:
        loc, msg = first_field_error(e, unknown_key="unknown key (not an option of this adapter)")
        known = ", ".join(schema.model_fields) or "(none)"
        raise ConfigError(
            f"dataset.options.{loc}: {msg} (adapter '{name}' options: {known})"
        ) from e


def load_dataset(
    name: str,
    root: Path,
    options: Mapping[str, Any] | None = None,
    *,
    strict: bool = True,
    limits: LengthLimits | None = None,
    over_length: OverLength = "error",
) -> LoadedDataset:
    """Load `root` with adapter `name`; strict fails on the first bad row, lenient collects them.
    Texts over `limits` (default `LengthLimits()`) fail their row, or are cut (`truncate`)."""
    parsed = parse_options(name, options)
    rules = TextRules(limits or LengthLimits(), over_length)
    sink = RowSink(strict=strict, root=root, check=rules.apply)
    spec(name)[0](root, parsed, sink)
    sink.dataset.cut = [cut.as_dict() for cut in rules.cuts]
    return sink.dataset
