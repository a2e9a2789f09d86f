"""Dataset adapters: each turns one source format into canonical questions and KB documents.

An adapter is a function `load(root, options, sink)` registered by name in the entry-point group
`parakh.adapters` (`pyproject.toml`; a plugin package registers its own the same way) and chosen
by `dataset.adapter` in config.
"""

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
