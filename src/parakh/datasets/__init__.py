"""Dataset adapters: each turns one source format into canonical questions and KB documents.

Adapters register themselves by name (`dataset.adapter` in config); add a new one as a module
here with `@register(name, OptionsClass)` and import it below.
"""

from parakh.datasets.registry import (
    AdapterOptions,
    adapter_names,
    get_adapter,
    load_dataset,
    parse_options,
    register,
)
from parakh.datasets.rows import LoadedDataset, Origin, RejectedRow, RowError, RowSink

__all__ = [
    "AdapterOptions",
    "LoadedDataset",
    "Origin",
    "RejectedRow",
    "RowError",
    "RowSink",
    "adapter_names",
    "get_adapter",
    "load_dataset",
    "parse_options",
    "register",
]


def _register_builtin() -> None:
    from parakh.datasets import (  # noqa: F401
        cataractbot,
        healthbot,
        indicquest,
        judgments,
        liveqa,
        medquad,
        nomiracl,
        qa_jsonl,
        squad,
    )


_register_builtin()
