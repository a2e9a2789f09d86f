"""Dataset adapters: each turns one source format into canonical questions and KB documents."""

from parakh.datasets.registry import LoadedDataset, get_adapter, register

__all__ = ["LoadedDataset", "get_adapter", "register"]


def _register_builtin() -> None:
    from parakh.datasets import healthbot  # noqa: F401


_register_builtin()
