"""A deterministic phrase-table translator, for tests and offline demos.

`entries[lang]` maps phrases in `lang` to English. Translation into English replaces the
longest matching phrase at each word (case-insensitive); translation from English uses the
inverted table (the first phrase listed wins when two share an English side); between two
other languages it goes through English. Words with no entry pass through unchanged, which
is what makes round trips lossy in a controlled way.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from parakh.config.translator import DictionaryTranslatorConfig
from parakh.errors import ConfigError
from parakh.project import resolve
from parakh.text.languages import ENGLISH, LanguageTag
from parakh.text.tokenize import is_word_char
from parakh.translation.base import Translated, Translator

PhraseTable = dict[tuple[str, ...], str]


def _tokens(text: str) -> list[tuple[bool, str]]:
    """(is_word, text) runs that concatenate back to `text`; words as `parakh.text.tokenize`
    reads them, matras and viramas inside."""
    return [(k, "".join(g)) for k, g in itertools.groupby(text, key=is_word_char)]


def _table(pairs: dict[str, str], invert: bool) -> PhraseTable:
    table: PhraseTable = {}
    for phrase, english in pairs.items():
        source, target = (english, phrase) if invert else (phrase, english)
        key = tuple(t.casefold() for is_word, t in _tokens(source) if is_word)
        if key:
            table.setdefault(key, target)
    return table


def apply_table(text: str, table: PhraseTable) -> str:
    """Replace the longest table phrase at each word, left to right; keep everything else."""
    tokens = _tokens(text)
    longest = max((len(k) for k in table), default=0)
    out: list[str] = []
    i = 0
    while i < len(tokens):
        is_word, piece = tokens[i]
        match = _longest_match(tokens, i, table, longest) if is_word else None
        if match is None:
            out.append(piece)
            i += 1
        else:
            replacement, i = match
            out.append(replacement)
    return "".join(out)


def _longest_match(
    tokens: list[tuple[bool, str]], start: int, table: PhraseTable, longest: int
) -> tuple[str, int] | None:
    """The replacement and the index after the longest phrase starting at `start`."""
    words: list[str] = []
    ends: list[int] = []
    i = start
    while i < len(tokens) and len(words) < longest:
        words.append(tokens[i][1].casefold())
        ends.append(i + 1)
        # the next word continues the phrase only across plain whitespace
        if i + 2 < len(tokens) and tokens[i + 1][1].isspace():
            i += 2
        else:
            break
    for n in range(len(words), 0, -1):
        target = table.get(tuple(words[:n]))
        if target is not None:
            return target, ends[n - 1]
    return None


class DictionaryTranslator(Translator):
    def __init__(self, cfg: DictionaryTranslatorConfig) -> None:
        super().__init__(cfg)
        self.entries = _load_entries(cfg)
        # (language, into English?) -> its phrase table
        self._tables = {
            (lang, into_english): _table(pairs, invert=not into_english)
            for lang, pairs in self.entries.items()
            for into_english in (True, False)
        }

    def identity(self) -> dict[str, Any]:
        return {"kind": "dictionary", "entries": self.entries}

    def translate_batch(
        self, sentences: Sequence[str], source: LanguageTag, target: LanguageTag
    ) -> list[Translated]:
        pair = ((source.code, True), (target.code, False))  # into English, then out of it
        steps = [(lang, into) for lang, into in pair if lang != "en"]
        for lang, _ in steps:
            if lang not in self.entries:
                error = f"dictionary '{self.name}' has no entries for language '{lang}'"
                return [Translated(text=None, error=error) for _ in sentences]
        results = []
        for sentence in sentences:
            text = sentence
            for step in steps:
                text = apply_table(text, self._tables[step])
            results.append(Translated(text=text))
        return results


def _load_entries(cfg: DictionaryTranslatorConfig) -> dict[str, dict[str, str]]:
    entries: dict[str, dict[str, str]] = {}
    if cfg.path:
        path = resolve(cfg.path)
        if not path.is_file():
            raise ConfigError(f"translator '{cfg.name}': dictionary file not found at {path}")
        entries = _read_entries(path)
    for lang, pairs in cfg.entries.items():
        entries.setdefault(lang, {}).update(pairs)
    for lang in entries:
        if lang != LanguageTag.of(lang).code:
            raise ConfigError(
                f"translator '{cfg.name}': write language '{lang}' as '{LanguageTag.of(lang).code}'"
            )
        if lang == ENGLISH.code:
            raise ConfigError(f"translator '{cfg.name}': entries map other languages to English")
    return entries


def _read_entries(path: Path) -> dict[str, dict[str, str]]:
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    if not isinstance(data, dict) or not all(
        isinstance(v, dict) and all(isinstance(a, str) and isinstance(b, str) for a, b in v.items())
        for v in data.values()
    ):
        raise ConfigError(f"{path}: expected {{language: {{phrase: English phrase}}}}")
    return {str(k): dict(v) for k, v in data.items()}
