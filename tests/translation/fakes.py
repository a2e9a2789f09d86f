"""Deterministic fake translators for tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parakh.config.translator import DictionaryTranslatorConfig
from parakh.text.languages import LanguageTag
from parakh.translation.base import Translated, Translator


class TableTranslator(Translator):
    """Translates by an explicit table per (source, target) FLORES pair; a sentence that is not
    in the table, or contains FAIL, fails with a reason. Records every batch it gets."""

    def __init__(self, tables: dict[tuple[str, str], dict[str, str]], batch_size: int = 8) -> None:
        super().__init__(
            DictionaryTranslatorConfig(name="table", kind="dictionary", batch_size=batch_size)
        )
        self.tables = tables
        self.batches: list[list[str]] = []

    def identity(self) -> dict[str, Any]:
        return {"kind": "table", "tables": {f"{a}>{b}": t for (a, b), t in self.tables.items()}}

    def translate_batch(
        self, sentences: Sequence[str], source: LanguageTag, target: LanguageTag
    ) -> list[Translated]:
        self.batches.append(list(sentences))
        table = self.tables.get((source.flores, target.flores), {})
        out = []
        for s in sentences:
            if "FAIL" in s or s not in table:
                out.append(Translated(text=None, error=f"cannot translate {s!r}"))
            else:
                out.append(Translated(text=table[s]))
        return out
