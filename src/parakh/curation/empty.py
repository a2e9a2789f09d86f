"""A dataset that yields no questions is an error, not an evaluation of nothing.

Without this check an empty questions file (or a language filter that matches nothing) runs
every stage to empty outputs and an empty leaderboard. The errors say which file or setting is
at fault and what to do. The one exception is a lenient run that quarantined every row: the
quarantine file is then what the user asked for, and curate says so instead of failing.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from parakh.datasets import LoadedDataset
from parakh.errors import ConfigError, InputError

_LISTED = 8  # files named in the message, at most


def _files(source: Path) -> str:
    """The files under `source` with their sizes: where the user should look."""
    if source.is_file():
        paths = [source]
    elif source.is_dir():
        paths = sorted(p for p in source.rglob("*") if p.is_file())
    else:
        return "it does not exist"
    if not paths:
        return "it holds no files"
    shown = [
        f"{p.relative_to(source) if p != source else p.name} ({p.stat().st_size:,} bytes)"
        for p in paths[:_LISTED]
    ]
    more = f", and {len(paths) - _LISTED} more" if len(paths) > _LISTED else ""
    return "files: " + ", ".join(shown) + more


def check_loaded(loaded: LoadedDataset, source: Path, adapter: str, strict: bool) -> None:
    """Fail when the adapter read no usable question from `source` (lenient: unless it read
    rows and quarantined them all)."""
    if loaded.questions or (loaded.rejected and not strict):
        return
    if loaded.rejected:
        first = loaded.rejected[0]
        where = first.file + (f", line {first.line}" if first.line is not None else "")
        raise InputError(
            source,
            f"no questions: all {len(loaded.rejected)} rows were rejected (first: {where}, "
            f"field '{first.field}': {first.message}); fix the rows, or run lenient "
            "(dataset.strict=false) to write them to the quarantine file",
        )
    raise InputError(
        source,
        f"no questions: the '{adapter}' adapter read none ({_files(source)}); check that the "
        "questions file holds rows and that dataset.path names the data "
        "(`parakh import-data <dataset>` brings a public dataset)",
    )


def check_selected(
    kept: int, read: int, dropped: Mapping[str, int], languages_present: list[str]
) -> None:
    """Fail when the selection settings (languages, per_language, relevance filter) or the
    hygiene steps left none of the `read` questions."""
    if kept or not read:
        return
    reasons = ", ".join(f"{k}: {v}" for k, v in sorted(dropped.items()) if v) or "none"
    hint = ""
    if dropped.get("language_not_selected"):
        present = ", ".join(languages_present)
        hint = f"; dataset.languages matches none of the languages present ({present})"
    elif dropped.get("not_relevant"):
        hint = "; dataset.relevance_filter drops every question"
    raise ConfigError(
        f"no questions left: {read} read, all dropped ({reasons}){hint}; "
        "change the selection settings"
    )
