"""One registry of dataset adapters, chosen by `dataset.adapter` in config."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from parakh.config.loading import unknown_name_message
from parakh.errors import ConfigError
from parakh.schema import KBDocument, Question


@dataclass
class LoadedDataset:
    questions: list[Question]
    documents: list[KBDocument] = field(default_factory=list)


Adapter = Callable[[Path], LoadedDataset]
_ADAPTERS: dict[str, Adapter] = {}


def register(name: str) -> Callable[[Adapter], Adapter]:
    def wrap(fn: Adapter) -> Adapter:
        _ADAPTERS[name] = fn
        return fn

    return wrap


def get_adapter(name: str) -> Adapter:
    if name not in _ADAPTERS:
        raise ConfigError(unknown_name_message("dataset adapter", name, sorted(_ADAPTERS)))
    return _ADAPTERS[name]
