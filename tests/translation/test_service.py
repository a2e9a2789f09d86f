"""Segmentation, de-duplication, batching, caching and failures, shared by all translators."""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.backends.cache import ResponseCache
from parakh.text.languages import ENGLISH, LanguageTag
from parakh.translation.service import TranslationService
from tests.translation.fakes import TableTranslator

HI = LanguageTag.of("hi")
TABLE = {
    ("hin_Deva", "eng_Latn"): {
        "एक।": "One.",
        "दो।": "Two.",
        "तीन?": "Three?",
        "चार": "Four",
    }
}


def test_sentences_are_translated_once_in_batches_and_rejoined(tmp_path: Path) -> None:
    translator = TableTranslator(TABLE, batch_size=2)
    service = TranslationService(translator, ResponseCache(tmp_path / "c.sqlite"))
    out = service.translate_texts(["एक। दो।\nतीन?", "दो। चार", "  "], HI, ENGLISH)
    assert [o.text for o in out] == ["One. Two.\nThree?", "Two. Four", "  "]
    assert translator.batches == [["एक।", "दो।"], ["तीन?", "चार"]]
    assert [o.sentences for o in out] == [3, 2, 0]


def test_cache_serves_a_second_run_and_keys_on_the_language_pair(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    TranslationService(TableTranslator(TABLE), cache).translate_texts(["एक। दो।"], HI, ENGLISH)
    second = TableTranslator(TABLE)
    service = TranslationService(second, cache)
    out = service.translate_texts(["एक। दो।"], HI, ENGLISH)
    assert out[0].text == "One. Two." and out[0].cached_sentences == 2
    assert second.batches == []  # both sentences came from the cache
    # same sentence, another pair: not a cache hit
    service.translate_texts(["एक।"], LanguageTag.of("mr"), ENGLISH)
    assert second.batches == [["एक।"]]


def test_a_failed_sentence_fails_its_text_and_is_never_cached(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    translator = TableTranslator(TABLE)
    service = TranslationService(translator, cache)
    out = service.translate_texts(["एक। FAIL।", "एक।"], HI, ENGLISH)
    assert not out[0].ok and "FAIL" in (out[0].error or "")
    assert out[1].text == "One."
    assert len(cache) == 1  # only the good sentence


def test_same_language_and_unsegmented_texts(tmp_path: Path) -> None:
    translator = TableTranslator({("hin_Deva", "eng_Latn"): {"एक। दो।": "One, two."}})
    service = TranslationService(translator, None, segment_sentences=False)
    assert service.translate_texts(["एक। दो।"], HI, ENGLISH)[0].text == "One, two."
    assert service.translate_texts(["unchanged"], ENGLISH, ENGLISH)[0].text == "unchanged"
    assert translator.batches == [["एक। दो।"]]


def test_progress_bar_per_language_pair_and_a_line_per_batch_that_lost_sentences(
    capsys: pytest.CaptureFixture[str],
) -> None:
    service = TranslationService(TableTranslator(TABLE, batch_size=2), None)
    service.translate_texts(["एक। दो। तीन? FAIL।"], HI, ENGLISH)
    err = capsys.readouterr().err
    assert "translate hi->en" in err and "4/4" in err and "sentence" in err
    assert "1 of 2 sentences of batch 2 failed" in err
    quiet = TranslationService(TableTranslator(TABLE), None, show_progress=False)
    quiet.translate_texts(["एक।"], HI, ENGLISH)
    assert capsys.readouterr().err == ""
