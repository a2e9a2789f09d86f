"""Dataset adapters: each turns one source format into canonical questions and KB documents
(`registry` says how one is chosen and called)."""

from parakh.datasets.registry import AdapterOptions, adapter_names, load_dataset, parse_options
from parakh.datasets.rows import LoadedDataset, Origin, RejectedRow, RowError, RowSink

__all__ = [
    "AdapterOptions",
    "LoadedDataset",
    "Origin",
    "RejectedRow",
    "RowError",
    "RowSink",
    "adapter_names",
    "load_dataset",
    "parse_options",
]
