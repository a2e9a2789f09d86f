"""One registry of dataset adapters, chosen by `dataset.adapter` in config.

An adapter is `load(root, options, sink)`: it reads the source at `root` and adds canonical rows
to the `RowSink`, each inside `sink.guard(...)`. Its options come from `dataset.options` and are
validated by the adapter's own schema, which rejects unknown keys. Every row is held to the
length limits and character rules of `parakh.datasets.limits` as it is added.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError

from parakh.config.base import Strict
from parakh.config.dataset import LengthLimits
from parakh.config.loading import unknown_name_message
from parakh.datasets.limits import OverLength, TextRules
from parakh.datasets.rows import LoadedDataset, RowSink
from parakh.errors import ConfigError, first_field_error


class AdapterOptions(Strict):
    """Options of one adapter (`dataset.options`); each adapter subclasses it."""


AdapterFn = Callable[[Path, Any, RowSink], None]


class Adapter(Protocol):
    def __call__(
        self, root: Path, options: Mapping[str, Any] | None = None, *, strict: bool = True
    ) -> LoadedDataset: ...


@dataclass(frozen=True)
class AdapterSpec:
    name: str
    load: AdapterFn
    options: type[AdapterOptions]


_ADAPTERS: dict[str, AdapterSpec] = {}


def register(
    name: str, options: type[AdapterOptions] = AdapterOptions
) -> Callable[[AdapterFn], AdapterFn]:
    def wrap(fn: AdapterFn) -> AdapterFn:
        _ADAPTERS[name] = AdapterSpec(name, fn, options)
        return fn

    return wrap


def adapter_names() -> list[str]:
    return sorted(_ADAPTERS)


def spec(name: str) -> AdapterSpec:
    if name not in _ADAPTERS:
        raise ConfigError(unknown_name_message("dataset adapter", name, adapter_names()))
    return _ADAPTERS[name]


def parse_options(name: str, options: Mapping[str, Any] | None) -> AdapterOptions:
    """Validate `dataset.options` against the adapter's schema, naming the offending key."""
    schema = spec(name).options
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
    adapter = spec(name)
    parsed = parse_options(name, options)
    rules = TextRules(limits or LengthLimits(), over_length)
    sink = RowSink(strict=strict, root=root, check=rules.apply)
    adapter.load(root, parsed, sink)
    sink.dataset.cut = [cut.as_dict() for cut in rules.cuts]
    return sink.dataset


def get_adapter(name: str) -> Adapter:
    """The adapter `name` as a function of (root, options, strict)."""
    spec(name)

    def load(
        root: Path, options: Mapping[str, Any] | None = None, *, strict: bool = True
    ) -> LoadedDataset:
        return load_dataset(name, root, options, strict=strict)

    return load
