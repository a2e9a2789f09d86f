"""Translators (IndicTrans2, NLLB-200, any LLM, a phrase table) behind one interface, with
sentence segmentation, batching and caching shared by all; translate-test and round-trip
filtered dataset translation built on them."""

from parakh.text.languages import ENGLISH, LanguageTag
from parakh.translation.base import Translated, Translator, make_translator
from parakh.translation.service import TextTranslation, TranslationService, make_service

__all__ = [
    "ENGLISH",
    "LanguageTag",
    "TextTranslation",
    "Translated",
    "TranslationService",
    "Translator",
    "make_service",
    "make_translator",
]
