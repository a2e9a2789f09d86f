"""FLORES-200 language tags (`hin_Deva`, `eng_Latn`) for our language codes and scripts.

IndicTrans2 and NLLB-200 both name a language by its ISO 639-3 code and ISO 15924 script.
Our questions carry an ISO 639-1 code and a Unicode script name (`parakh.text.script`); this
module maps one onto the other, so a romanized Hindi question becomes `hin_Latn` (which
neither model knows, so it is reported rather than silently translated as Devanagari).
"""

from __future__ import annotations

from dataclasses import dataclass

from parakh.text.languages import LANGUAGES, check_language, language_name

# Unicode script names (parakh.text.script) -> ISO 15924 codes.
SCRIPT_CODES: dict[str, str] = {
    "Latin": "Latn",
    "Devanagari": "Deva",
    "Bengali": "Beng",
    "Gujarati": "Gujr",
    "Gurmukhi": "Guru",
    "Kannada": "Knda",
    "Malayalam": "Mlym",
    "Oriya": "Orya",
    "Tamil": "Taml",
    "Telugu": "Telu",
    "Arabic": "Arab",
    "Meetei_Mayek": "Mtei",
    "Ol_Chiki": "Olck",
}

# Where FLORES-200 uses another ISO 639-3 code than `parakh.text.languages` does.
_FLORES_LANGUAGE: dict[str, str] = {
    "or": "ory",  # individual Odia; `ori` is the macrolanguage
    "ne": "npi",  # individual Nepali
    "kok": "gom",  # Goan Konkani
}


@dataclass(frozen=True)
class LanguageTag:
    """A language as translators need it: our code plus the script the text is written in."""

    code: str
    script: str

    @classmethod
    def of(cls, language: str, script: str | None = None) -> LanguageTag:
        """The tag for a language code (aliases accepted); with no script, or an unknown one
        ("Unknown", "Common"), the language's primary script."""
        code = check_language(language)
        if script not in SCRIPT_CODES:
            script = LANGUAGES[code].primary_script
        return cls(code=code, script=script)

    @property
    def flores(self) -> str:
        """The FLORES-200 tag, e.g. `hin_Deva`; `hin_Latn` for romanized Hindi."""
        lang = _FLORES_LANGUAGE.get(self.code, LANGUAGES[self.code].iso639_3)
        return f"{lang}_{SCRIPT_CODES[self.script]}"

    @property
    def romanized(self) -> bool:
        return self.code != "en" and self.script == "Latin"

    def describe(self) -> str:
        """For prompts: "Hindi", or "Hindi (romanized, in Latin letters)"."""
        name = language_name(self.code)
        if self.romanized:
            return f"{name} (romanized, in Latin letters)"
        if self.script != LANGUAGES[self.code].primary_script:
            return f"{name} (in {self.script.replace('_', ' ')} script)"
        return name

    def __str__(self) -> str:
        return self.flores


ENGLISH = LanguageTag("en", "Latin")


def model_tag(tag: LanguageTag, overrides: dict[str, str]) -> str:
    """The tag a model uses for `tag`: a config override by code or FLORES tag, else FLORES."""
    return overrides.get(tag.flores, overrides.get(tag.code, tag.flores))


def no_tag_error(model: str, tag: str, language: LanguageTag) -> ValueError:
    """`model` has no tag for `language` (romanized text: use an LLM translator)."""
    hint = " (romanized text is not supported; use an LLM translator)" if language.romanized else ""
    return ValueError(f"{model} has no language tag '{tag}'{hint}")
