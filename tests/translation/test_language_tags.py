"""FLORES-200 tags from our language codes and script names."""

from __future__ import annotations

import pytest

from parakh.errors import ConfigError
from parakh.text.languages import LanguageTag
from parakh.translation.hf import model_tag


@pytest.mark.parametrize(
    ("code", "script", "flores"),
    [
        ("hi", None, "hin_Deva"),
        ("hi", "Latin", "hin_Latn"),
        ("en", None, "eng_Latn"),
        ("ta", "Tamil", "tam_Taml"),
        ("kn", None, "kan_Knda"),
        ("or", None, "ory_Orya"),
        ("ne", None, "npi_Deva"),
        ("kok", None, "gom_Deva"),
        ("pa", None, "pan_Guru"),
        ("ur", None, "urd_Arab"),
        ("mni", None, "mni_Mtei"),
        ("Hindi", "Unknown", "hin_Deva"),
    ],
)
def test_flores_tags(code: str, script: str | None, flores: str) -> None:
    assert LanguageTag.of(code, script).flores == flores


def test_romanized_is_described_for_prompts() -> None:
    assert LanguageTag.of("hi", "Latin").describe() == "Hindi (romanized, in Latin letters)"
    assert LanguageTag.of("hi").describe() == "Hindi"


def test_overrides_by_code_or_tag() -> None:
    assert model_tag(LanguageTag.of("mni"), {"mni": "mni_Beng"}) == "mni_Beng"
    assert model_tag(LanguageTag.of("hi"), {"hin_Deva": "hin_X"}) == "hin_X"


def test_unknown_language_names_close_matches() -> None:
    with pytest.raises(ConfigError, match="Did you mean"):
        LanguageTag.of("hn")
