"""The languages Parakh knows: ISO 639-1 codes (639-3 where no 639-1 exists), names, scripts,
and their FLORES-200 tags (`hin_Deva`) for translators.

Every language setting in a config goes through `check_language`, so a typo such as "hn" fails
with the close matches and the full list instead of producing an empty evaluation.

IndicTrans2 and NLLB-200 name a language by its ISO 639-3 code and ISO 15924 script; a
`LanguageTag` maps our code and the Unicode script name a text is written in onto that, so a
romanized Hindi question becomes `hin_Latn` (which neither model knows, so it is reported
rather than silently translated as Devanagari).
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


# code, ISO 639-3 code, English name, scripts (primary first, comma-separated). Script names
# are Unicode script property values, as returned by parakh.text.script.
_INDIC_TABLE = """
hi hin Hindi Devanagari
bn ben Bengali Bengali
gu guj Gujarati Gujarati
kn kan Kannada Kannada
ml mal Malayalam Malayalam
mr mar Marathi Devanagari
or ori Odia Oriya
pa pan Punjabi Gurmukhi,Arabic
ta tam Tamil Tamil
te tel Telugu Telugu
ur urd Urdu Arabic
as asm Assamese Bengali
ne nep Nepali Devanagari
sa san Sanskrit Devanagari
sd snd Sindhi Arabic,Devanagari
kok kok Konkani Devanagari,Kannada,Latin
mai mai Maithili Devanagari
doi doi Dogri Devanagari
mni mni Manipuri Meetei_Mayek,Bengali
"""
# NoMIRACL's other languages (its upstream results hold 18)
_NOMIRACL_TABLE = """
ar ara Arabic Arabic
de deu German Latin
es spa Spanish Latin
fa fas Persian Arabic
fi fin Finnish Latin
fr fra French Latin
id ind Indonesian Latin
ja jpn Japanese Han,Hiragana,Katakana
ko kor Korean Hangul
ru rus Russian Cyrillic
sw swa Swahili Latin
th tha Thai Thai
yo yor Yoruba Latin
zh zho Chinese Han
"""


def _languages(table: str) -> list[Language]:
    rows = (line.split() for line in table.strip().splitlines())
    return [
        Language(code, iso, name, tuple(scripts.split(","))) for code, iso, name, scripts in rows
    ]


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in _languages("en eng English Latin")
    + _languages(_INDIC_TABLE)
    + _languages(_NOMIRACL_TABLE)
}
INDIC_LANGUAGES: frozenset[str] = frozenset(lang.code for lang in _languages(_INDIC_TABLE))

# Other names and codes people write for our languages; keys are lower-case. ory, npi and dgo
# are the individual ISO 639-3 codes (ori, nep and doi are macrolanguages); gom is Goan Konkani,
# the code py3langid uses; pnb is Western Punjabi (Shahmukhi).
_EXTRA_ALIASES: dict[str, str] = {
    "ory": "or",
    "oriya": "or",
    "odiya": "or",
    "npi": "ne",
    "nepalese": "ne",
    "gom": "kok",
    "knn": "kok",
    "dgo": "doi",
    "bangla": "bn",
    "panjabi": "pa",
    "pnb": "pa",
    "meitei": "mni",
    "meetei": "mni",
    "meiteilon": "mni",
    "hindustani": "hi",
}
LANGUAGE_ALIASES: dict[str, str] = {
    alias: lang.code
    for lang in LANGUAGES.values()
    for alias in (lang.code, lang.iso639_3, lang.name.lower())
} | _EXTRA_ALIASES


def normalize_language(name_or_code: str) -> str | None:
    """Our code for a code, ISO 639-3 code or English name ("Hindi", "hin" -> "hi"), or None."""
    key = name_or_code.strip().lower().replace("_", "-")
    return LANGUAGE_ALIASES.get(key, LANGUAGE_ALIASES.get(key.split("-", 1)[0]))  # "hi-Latn"


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
        shown=lambda a: f"'{LANGUAGE_ALIASES[a]}' ({LANGUAGES[LANGUAGE_ALIASES[a]].name})",
    )
    available = ", ".join(sorted(LANGUAGES))
    raise ConfigError(f"Unknown language '{code}'.{hint} Available: {available}")


def language_name(code: str) -> str:
    """English name of a language code or alias; raises ConfigError if unknown."""
    return LANGUAGES[check_language(code)].name


def languages_for_script(script: str) -> list[str]:
    """Our languages whose primary script is `script`, in table order."""
    return [code for code, lang in LANGUAGES.items() if lang.primary_script == script]


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

# Where FLORES-200 uses another ISO 639-3 code than `LANGUAGES` does.
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
