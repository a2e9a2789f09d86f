"""Parakh's extension points, found by Python entry point: model backends, metrics, dataset
adapters, judges and LLM checks. Parakh registers its own in `pyproject.toml` exactly as a plugin
package does, so a package that declares

    [project.entry-points."parakh.backends"]
    echo = "my_plugin.echo:EchoBackend"

adds `backend: echo` once it is installed, and nothing in Parakh is edited (docs/extending.md).
An entry point is imported only when its name is used, so an optional dependency loads only then.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, PackageNotFoundError, distribution, entry_points
from typing import Any, Literal

from parakh.errors import ConfigError, did_you_mean

Kind = Literal["backends", "metrics", "adapters", "judges", "checks"]
KIND_NAMES: dict[Kind, str] = {
    "backends": "model backend",
    "metrics": "metric",
    "adapters": "dataset adapter",
    "judges": "judge",
    "checks": "LLM check",
}


@cache
def _registered(kind: Kind) -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=f"parakh.{kind}"):
        known = found.setdefault(point.name, point)
        if known.value != point.value:
            raise ConfigError(
                f"two installed packages register the {KIND_NAMES[kind]} '{point.name}' "
                f"(entry-point group parakh.{kind}): {known.value} and {point.value}; "
                "uninstall one of them"
            )
    return found


def names(kind: Kind) -> list[str]:
    """Every name registered in the group `parakh.<kind>`, sorted."""
    return sorted(_registered(kind))


def is_registered(kind: Kind, name: str) -> bool:
    return name in _registered(kind)


def load(kind: Kind, name: str) -> Any:
    """The object the entry point `name` of group `parakh.<kind>` names, imported now."""
    point = _registered(kind).get(name)
    if point is None:
        try:
            distribution("parakh")
        except PackageNotFoundError:  # a source tree on the path: no entry point of its own
            raise ConfigError(
                f"Unknown {KIND_NAMES[kind]} '{name}': Parakh is not installed, so neither are "
                "its entry points; install it (`pip install -e .` in its folder)"
            ) from None
        known = names(kind)
        raise ConfigError(
            f"Unknown {KIND_NAMES[kind]} '{name}'.{did_you_mean(name, known)} "
            f"Available: {', '.join(known) or '(none)'}. No installed package registers "
            f"'{name}' in the entry-point group parakh.{kind}: `pip install` the package "
            "that provides it (docs/extending.md)"
        )
    return point.load()
