"""NLLB-200 through `transformers`: the source tag set on the tokenizer (`src_lang`, which puts
it in front of the tokens), the target tag forced as the first generated token."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parakh.config.translator import NLLBConfig
from parakh.errors import ConfigError
from parakh.text.languages import LanguageTag
from parakh.translation.base import Translated, Translator
from parakh.translation.hf import Seq2SeqModel, model_tag, no_tag_error
from parakh.translation.indic_processing import normalize_punctuation


class NLLBTranslator(Translator):
    cfg: NLLBConfig

    def __init__(self, cfg: NLLBConfig) -> None:
        super().__init__(cfg)
        self.model = Seq2SeqModel(cfg, "model")

    def identity(self) -> dict[str, Any]:
        return {
            "kind": "nllb",
            **self.model.identity,
            "num_beams": self.cfg.num_beams,
            "max_new_tokens": self.cfg.max_new_tokens,
            "language_tags": self.cfg.language_tags,
        }

    def _tag_id(self, language: LanguageTag) -> tuple[str, int]:
        tag = model_tag(language, self.cfg.language_tags)
        token_id = self.model.token_id(tag)
        if token_id is None:
            raise no_tag_error("NLLB model", tag, language)
        return tag, token_id

    def translate_batch(
        self, sentences: Sequence[str], source: LanguageTag, target: LanguageTag
    ) -> list[Translated]:
        try:
            source_tag, _ = self._tag_id(source)
            _, target_id = self._tag_id(target)
        except ValueError as e:
            return [Translated(text=None, error=str(e)) for _ in sentences]
        tokenizer = self.model.tokenizer
        if not hasattr(tokenizer, "src_lang"):
            raise ConfigError(
                f"translator '{self.name}': the tokenizer in {self.model.folder} takes no source "
                "language (`src_lang`); is this an NLLB checkpoint?"
            )
        tokenizer.src_lang = source_tag
        return self.model.translate([normalize_punctuation(s) for s in sentences], target_id)

    def close(self) -> None:
        self.model.close()
