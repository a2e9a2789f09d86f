"""The languages Parakh knows: ISO 639-1 codes (639-3 where no 639-1 exists), names, scripts.

Every language setting in a config goes through `check_language`, so a typo such as "hn" fails
with the close matches and the full list instead of producing an empty evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass

from parakh.errors import ConfigError, did_you_mean


@dataclass(frozen=True)
class Language:
    """One language: our code, its ISO 639-3 code, English name and scripts (primary first)."""

    code: str
    iso639_3: str
    name: str
    scripts: tuple[str, ...]

    @property
    def primary_script(self) -> str:
        return self.scripts[0]


# Script names are Unicode script property values, as returned by parakh.text.script.
LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language("en", "eng", "English", ("Latin",)),
        Language("hi", "hin", "Hindi", ("Devanagari",)),
        Language("bn", "ben", "Bengali", ("Bengali",)),
        Language("gu", "guj", "Gujarati", ("Gujarati",)),
        Language("kn", "kan", "Kannada", ("Kannada",)),
        Language("ml", "mal", "Malayalam", ("Malayalam",)),
        Language("mr", "mar", "Marathi", ("Devanagari",)),
        Language("or", "ori", "Odia", ("Oriya",)),
        Language("pa", "pan", "Punjabi", ("Gurmukhi", "Arabic")),
        Language("ta", "tam", "Tamil", ("Tamil",)),
        Language("te", "tel", "Telugu", ("Telugu",)),
        Language("ur", "urd", "Urdu", ("Arabic",)),
        Language("as", "asm", "Assamese", ("Bengali",)),
        Language("ne", "nep", "Nepali", ("Devanagari",)),
        Language("sa", "san", "Sanskrit", ("Devanagari",)),
        Language("sd", "snd", "Sindhi", ("Arabic", "Devanagari")),
        Language("kok", "kok", "Konkani", ("Devanagari", "Kannada", "Latin")),
        Language("mai", "mai", "Maithili", ("Devanagari",)),
        Language("doi", "doi", "Dogri", ("Devanagari",)),
        Language("mni", "mni", "Manipuri", ("Meetei_Mayek", "Bengali")),
        # NoMIRACL's other languages (its upstream results hold 18)
        Language("ar", "ara", "Arabic", ("Arabic",)),
        Language("de", "deu", "German", ("Latin",)),
        Language("es", "spa", "Spanish", ("Latin",)),
        Language("fa", "fas", "Persian", ("Arabic",)),
        Language("fi", "fin", "Finnish", ("Latin",)),
        Language("fr", "fra", "French", ("Latin",)),
        Language("id", "ind", "Indonesian", ("Latin",)),
        Language("ja", "jpn", "Japanese", ("Han", "Hiragana", "Katakana")),
        Language("ko", "kor", "Korean", ("Hangul",)),
        Language("ru", "rus", "Russian", ("Cyrillic",)),
        Language("sw", "swa", "Swahili", ("Latin",)),
        Language("th", "tha", "Thai", ("Thai",)),
        Language("yo", "yor", "Yoruba", ("Latin",)),
        Language("zh", "zho", "Chinese", ("Han",)),
    )
}

INDIC_LANGUAGES: frozenset[str] = frozenset(
    ("hi", "bn", "gu", "kn", "ml", "mr", "or", "pa", "ta", "te", "ur", "as", "ne", "sa", "sd")
    + ("kok", "mai", "doi", "mni")
)

# Other names and codes people write for our languages; keys are lower-case.
_EXTRA_ALIASES: dict[str, str] = {
    "ory": "or",  # ISO 639-3 individual code (ori is the macrolanguage)
    "oriya": "or",
    "odiya": "or",
    "npi": "ne",  # individual Nepali
    "nepalese": "ne",
    "gom": "kok",  # Goan Konkani, the code py3langid uses
    "knn": "kok",
    "dgo": "doi",  # individual Dogri
    "bangla": "bn",
    "panjabi": "pa",
    "pnb": "pa",  # Western Punjabi (Shahmukhi)
    "meitei": "mni",
    "meetei": "mni",
    "meiteilon": "mni",
    "hindustani": "hi",
}


def _build_aliases() -> dict[str, str]:
    aliases: dict[str, str] = {}
    for lang in LANGUAGES.values():
        aliases[lang.code] = lang.code
        aliases[lang.iso639_3] = lang.code
        aliases[lang.name.lower()] = lang.code
    aliases.update(_EXTRA_ALIASES)
    return aliases


LANGUAGE_ALIASES: dict[str, str] = _build_aliases()


def normalize_language(name_or_code: str) -> str | None:
    """Our code for a code, ISO 639-3 code or English name ("Hindi", "hin" -> "hi"), or None."""
    key = name_or_code.strip().lower().replace("_", "-")
    if key in LANGUAGE_ALIASES:
        return LANGUAGE_ALIASES[key]
    base = key.split("-", 1)[0]  # "hi-Latn", "en-IN"
    return LANGUAGE_ALIASES.get(base)


def _code_and_name(alias: str) -> str:
    code = LANGUAGE_ALIASES[alias]
    return f"'{code}' ({LANGUAGES[code].name})"


def check_language(code: str) -> str:
    """Return our code for `code` (aliases accepted), or raise ConfigError naming close matches."""
    normalized = normalize_language(code)
    if normalized is not None:
        return normalized
    hint = did_you_mean(  # an alias ("hindi", "hin") shown as its code and name
        code.strip().lower(),
        sorted(LANGUAGE_ALIASES),
        cutoff=0.6,
        candidates=5,
        shown=_code_and_name,
    )
    available = ", ".join(sorted(LANGUAGES))
    raise ConfigError(f"Unknown language '{code}'.{hint} Available: {available}")


def language_name(code: str) -> str:
    """English name of a language code or alias; raises ConfigError if unknown."""
    return LANGUAGES[check_language(code)].name


def languages_for_script(script: str) -> list[str]:
    """Our languages whose primary script is `script`, in table order."""
    return [code for code, lang in LANGUAGES.items() if lang.primary_script == script]
