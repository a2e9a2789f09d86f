"""The one translator interface: a batch of sentences in, one result per sentence out.

Translators are created lazily from a translator config, so `transformers` and `torch` are
imported only when an IndicTrans2 or NLLB translator is used. Segmentation, caching and
batching live in `parakh.translation.service`, once for every translator.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parakh.config.translator import ActiveTranslatorConfig, TranslatorConfig
from parakh.errors import ConfigError
from parakh.text.languages import LanguageTag


@dataclass(frozen=True)
class Translated:
    """One sentence's translation, or the reason there is none."""

    text: str | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.text is not None


class Translator(ABC):
    """Translates sentences between languages. A failure comes back as a `Translated` with an
    error; a misconfiguration (missing weights, unknown language tag) raises ConfigError."""

    def __init__(self, cfg: ActiveTranslatorConfig) -> None:
        self.cfg = cfg

    @property
    def name(self) -> str:
        return self.cfg.name

    @abstractmethod
    def identity(self) -> dict[str, Any]:
        """Everything that changes a translation (model, weights, decoding settings, prompt),
        and nothing that does not (batch size, device): part of every cache key."""

    @abstractmethod
    def translate_batch(
        self, sentences: Sequence[str], source: LanguageTag, target: LanguageTag
    ) -> list[Translated]:
        """One result per sentence, in order. `source != target` and no sentence is blank."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources (model weights, servers)."""


_TRANSLATORS = {
    "dictionary": "parakh.translation.dictionary:DictionaryTranslator",
    "indictrans2": "parakh.translation.indictrans2:IndicTrans2Translator",
    "nllb": "parakh.translation.nllb:NLLBTranslator",
    "llm": "parakh.translation.llm:LLMTranslator",
}


def make_translator(cfg: TranslatorConfig) -> Translator:
    """The translator for a config; its optional dependencies are imported only now."""
    if cfg.kind == "none":
        raise ConfigError(
            f"translator '{cfg.name}' is kind 'none' (direct inference) and translates nothing; "
            f"choose one of: {', '.join(sorted(_TRANSLATORS))}"
        )
    module_name, _, cls_name = _TRANSLATORS[cfg.kind].partition(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    translator: Translator = cls(cfg)
    return translator
