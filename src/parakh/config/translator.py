"""Schema of conf/translator/*.yaml: one class per translator kind, chosen by `kind`.

`none` (the default) is direct inference: questions go to the model in their own language.
Every other kind translates questions (and, if asked, their context) into English for
translate-test, and translates datasets for `parakh translate-dataset`. Weights are never
downloaded at run time unless `allow_download: true`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from parakh.config.base import Strict
from parakh.config.model import ModelConfig


class NoTranslator(Strict):
    """Direct inference: nothing is translated."""

    name: str
    kind: Literal["none"]


class _TranslatorBase(Strict):
    name: str
    description: str = ""
    segment: bool = Field(default=True, description="translate sentence by sentence")
    batch_size: int = Field(default=8, ge=1, description="segments per translator call")
    translate_context: bool = Field(default=True, description="translate-test: passages, chunks")


class DictionaryTranslatorConfig(_TranslatorBase):
    """Deterministic phrase-table translator for tests and offline demos: `entries` maps a
    language code to {phrase: English phrase}, inverted for the reverse direction."""

    kind: Literal["dictionary"]
    entries: dict[str, dict[str, str]] = Field(default_factory=dict)
    path: str | None = Field(default=None, description="a JSON or YAML file of `entries`")


class WeightsRef(Strict):
    """Where a Hugging Face model's weights are: a local folder, else the HF cache."""

    model_id: str
    path: str | None = Field(default=None, description="a local folder holding the model")
    revision: str | None = None


class _Seq2SeqBase(_TranslatorBase):
    allow_download: bool = Field(default=False, description="fetch missing weights from the Hub")
    device: str = "cpu"
    dtype: Literal["float32", "float16", "bfloat16"] = "float32"
    num_beams: int = Field(default=5, ge=1)
    max_new_tokens: int = Field(default=256, ge=1)
    max_input_tokens: int = Field(default=256, ge=8, description="longer segments are truncated")
    language_tags: dict[str, str] = Field(
        default_factory=dict, description="FLORES-200 tags by code, e.g. {mni: mni_Beng}"
    )


class IndicTrans2Config(_Seq2SeqBase):
    """AI4Bharat IndicTrans2 via `transformers`: an indic-en and an en-indic model (the
    checkpoints ship their own modelling code, hence `trust_remote_code`)."""

    kind: Literal["indictrans2"]
    indic_en: WeightsRef = Field(
        default_factory=lambda: WeightsRef(model_id="ai4bharat/indictrans2-indic-en-dist-200M")
    )
    en_indic: WeightsRef = Field(
        default_factory=lambda: WeightsRef(model_id="ai4bharat/indictrans2-en-indic-dist-200M")
    )
    trust_remote_code: bool = True


class NLLBConfig(_Seq2SeqBase):
    """Meta NLLB-200 via `transformers` (source tag on the input, target tag forced as BOS)."""

    kind: Literal["nllb"]
    model: WeightsRef = Field(
        default_factory=lambda: WeightsRef(model_id="facebook/nllb-200-distilled-600M")
    )


class LLMTranslatorConfig(_TranslatorBase):
    """Any generation backend used as a translator, with a prompt from conf/prompt/."""

    kind: Literal["llm"]
    model: ModelConfig
    prompt: str = Field(default="translate", description="a file in conf/prompt/")


ActiveTranslatorConfig = (
    DictionaryTranslatorConfig | IndicTrans2Config | NLLBConfig | LLMTranslatorConfig
)
"""A translator that translates (every kind but `none`)."""

TranslatorConfig = Annotated[NoTranslator | ActiveTranslatorConfig, Field(discriminator="kind")]
