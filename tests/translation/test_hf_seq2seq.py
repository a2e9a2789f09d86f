"""IndicTrans2 and NLLB translators on tiny random seq2seq checkpoints built in the test.

Checks what reaches the model (language tags, one sentence per row, batch sizes), how outputs
are put back together, and that a second run is served from the cache without loading a model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from parakh.backends.cache import ResponseCache
from parakh.config.translator import IndicTrans2Config, NLLBConfig, WeightsRef
from parakh.errors import ConfigError
from parakh.text.languages import ENGLISH, LanguageTag
from parakh.translation.hf import Seq2SeqModel, weights_fingerprint
from parakh.translation.service import make_service

pytestmark = pytest.mark.slow  # imports torch (~10 s on 2 cores)

HINDI = LanguageTag.of("hi")
S1 = "ऑपरेशन के बाद सिर से कब नहा सकते हैं?"
S2 = "आँख में ड्रॉप दिन में कितनी बार डालनी है?"
S3 = "दवा दिन में चार बार डालें।"


def _spy(model: Seq2SeqModel) -> list[dict[str, Any]]:
    """Record every call to the underlying HF model's generate (inputs and kwargs)."""
    calls: list[dict[str, Any]] = []
    hf_model = model.model
    original = hf_model.generate

    def generate(**kwargs: Any) -> Any:
        output = original(**kwargs)
        calls.append({**kwargs, "output": output})
        return output

    hf_model.generate = generate
    return calls


def _indictrans2(dirs: dict[str, Path], **overrides: Any) -> IndicTrans2Config:
    return IndicTrans2Config(
        name="it2-tiny",
        kind="indictrans2",
        indic_en=WeightsRef(model_id="tiny/indic-en", path=str(dirs["indic_en"])),
        en_indic=WeightsRef(model_id="tiny/en-indic", path=str(dirs["en_indic"])),
        trust_remote_code=False,
        num_beams=1,
        max_new_tokens=6,
        batch_size=2,
        **overrides,
    )


def test_indictrans2_tags_segments_batches_and_rejoins(tiny_indictrans2, tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite")
    service = make_service(_indictrans2(tiny_indictrans2), cache)
    model = service.translator.models["indic_en"]  # type: ignore[attr-defined]
    calls = _spy(model)
    paragraph = f"{S1} {S2}\n\n{S3}"
    results = service.translate_texts([paragraph, S3], HINDI, ENGLISH)

    # three distinct sentences (S3 twice), batch_size 2: two generate calls of 2 and 1 rows
    assert [len(c["input_ids"]) for c in calls] == [2, 1]
    tokenizer = model.tokenizer
    hin, eng = tokenizer.convert_tokens_to_ids(["hin_Deva", "eng_Latn"])
    for call in calls:
        for row in call["input_ids"].tolist():
            assert row[:2] == [hin, eng]  # `src_tag tgt_tag` lead every sentence
    first_rows = [tokenizer.convert_ids_to_tokens(r) for r in calls[0]["input_ids"].tolist()]
    assert first_rows[0][2:6] == ["ऑपरेशन", "के", "बाद", "सिर"]
    assert first_rows[0][-2:] == ["?", "</s>"]  # punctuation split off, one sentence per row

    # every sentence is translated once, and the paragraph is rejoined around its own gaps
    singles = {s: service.translate_texts([s], HINDI, ENGLISH)[0].text for s in (S1, S2, S3)}
    assert all(singles.values())
    assert results[0].ok and results[0].sentences == 3
    assert results[0].text == f"{singles[S1]} {singles[S2]}\n\n{singles[S3]}"
    assert results[1].text == singles[S3]
    assert len(calls) == 2  # the single-sentence calls above came from the cache

    # a fresh translator with the same cache never loads a model
    again = make_service(_indictrans2(tiny_indictrans2), cache)
    cached = again.translate_texts([paragraph, S3], HINDI, ENGLISH)
    assert [r.text for r in cached] == [r.text for r in results]
    assert [r.cached_sentences for r in cached] == [3, 1]
    assert again.translator.models["indic_en"].loads == 0  # type: ignore[attr-defined]


def test_indictrans2_directions_and_unsupported_tags(tiny_indictrans2, tmp_path: Path) -> None:
    service = make_service(_indictrans2(tiny_indictrans2), None)
    en_indic = service.translator.models["en_indic"]  # type: ignore[attr-defined]
    calls = _spy(en_indic)
    (out,) = service.translate_texts(["Use the eye drops four times a day."], ENGLISH, HINDI)
    assert out.ok
    tokenizer = en_indic.tokenizer
    row = calls[0]["input_ids"].tolist()[0]
    assert row[:2] == tokenizer.convert_tokens_to_ids(["eng_Latn", "hin_Deva"])
    assert service.translator.models["indic_en"].loads == 0  # type: ignore[attr-defined]

    (romanized,) = service.translate_texts(
        ["dawa kitni baar dalni hai?"], LanguageTag.of("hi", "Latin"), ENGLISH
    )
    assert not romanized.ok and "hin_Latn" in (romanized.error or "")


def test_too_long_sentences_fail_instead_of_being_truncated(tiny_indictrans2) -> None:
    service = make_service(_indictrans2(tiny_indictrans2, max_input_tokens=8), None)
    short, long = service.translate_texts(["दवा डालें।", S1], HINDI, ENGLISH)
    assert short.ok
    assert not long.ok and "longer than max_input_tokens (8)" in (long.error or "")


def test_identity_follows_the_weights(tiny_indictrans2) -> None:
    a, b = tiny_indictrans2["indic_en"], tiny_indictrans2["en_indic"]
    assert weights_fingerprint(a) == weights_fingerprint(a)
    assert weights_fingerprint(a) != weights_fingerprint(b)


def _nllb(folder: Path, **overrides: Any) -> NLLBConfig:
    return NLLBConfig(
        name="nllb-tiny",
        kind="nllb",
        model=WeightsRef(model_id="tiny/nllb", path=str(folder)),
        num_beams=1,
        max_new_tokens=5,
        batch_size=4,
        **overrides,
    )


def test_nllb_source_tag_first_and_target_tag_forced(tiny_nllb: Path, tmp_path: Path) -> None:
    service = make_service(_nllb(tiny_nllb), ResponseCache(tmp_path / "cache.sqlite"))
    model = service.translator.model  # type: ignore[attr-defined]
    calls = _spy(model)
    out = service.translate_texts([f"{S1} {S3}"], HINDI, ENGLISH)
    assert out[0].ok and out[0].sentences == 2
    tokenizer = model.tokenizer
    hin, eng = tokenizer.convert_tokens_to_ids(["hin_Deva", "eng_Latn"])
    (call,) = calls
    assert call["forced_bos_token_id"] == eng
    assert [row[0] for row in call["input_ids"].tolist()] == [hin, hin]
    assert [row[1] for row in call["output"].tolist()] == [eng, eng]  # after decoder start

    service.translate_texts(["Use the eye drops."], ENGLISH, LanguageTag.of("ta"))
    assert calls[1]["forced_bos_token_id"] == tokenizer.convert_tokens_to_ids("tam_Taml")
    assert calls[1]["input_ids"].tolist()[0][0] == eng


def test_nllb_unknown_language_tag_is_a_recorded_failure(tiny_nllb: Path) -> None:
    service = make_service(_nllb(tiny_nllb, language_tags={"hi": "hin_Xxxx"}), None)
    (out,) = service.translate_texts([S3], HINDI, ENGLISH)
    assert not out.ok and "hin_Xxxx" in (out.error or "")


def test_missing_weights_name_the_model_the_places_and_the_fix(tmp_path: Path) -> None:
    cfg = IndicTrans2Config(
        name="it2",
        kind="indictrans2",
        indic_en=WeightsRef(model_id="parakh-tests/no-such-indic-en"),
        en_indic=WeightsRef(model_id="parakh-tests/no-such-en-indic", path=str(tmp_path / "nope")),
    )
    with pytest.raises(ConfigError) as cache_miss:
        make_service(cfg, None)
    message = str(cache_miss.value)
    assert "parakh-tests/no-such-indic-en" in message
    assert "Hugging Face cache" in message
    assert "indic_en.path" in message and "allow_download: true" in message
    assert "Nothing is downloaded at run time" in message

    local = cfg.model_copy(update={"indic_en": cfg.en_indic})
    with pytest.raises(ConfigError) as path_miss:
        make_service(local, None)
    assert str(tmp_path / "nope") in str(path_miss.value)
    assert "no such folder" in str(path_miss.value)
