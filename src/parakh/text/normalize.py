"""Answer normalisation for exact match and token F1, correct on every script we evaluate.

`normalize_answer` is the SQuAD v1.1 normalisation (lower-case, drop punctuation, drop English
articles, collapse whitespace) generalised to Unicode: on ASCII English text it returns exactly
what the official SQuAD script returns, and on Indic text it does not destroy letters, vowel
signs or viramas the way ASCII-only rules do.
"""

from __future__ import annotations

import re
import unicodedata

from parakh.text.languages import check_language

# Malayalam atomic chillus and the older encoding <consonant, virama, ZWJ> mean the same letter.
# Once ZWJ is removed the older form is <consonant, virama>, so map the atomic form to it too:
# chillu m, y, lll, nn, n, rr, l, ll, k.
_MALAYALAM_CHILLU = {
    chillu: consonant + "\u0d4d"
    for chillu, consonant in zip(
        "\u0d54\u0d55\u0d56\u0d7a\u0d7b\u0d7c\u0d7d\u0d7e\u0d7f",
        "\u0d2e\u0d2f\u0d34\u0d23\u0d28\u0d30\u0d32\u0d33\u0d15",
        strict=True,
    )
}

ZERO_WIDTH_SPACE = "\u200b"
_SPELLED_OUT = {ZERO_WIDTH_SPACE: " ", **_MALAYALAM_CHILLU}  # before format characters go
_ENGLISH_ARTICLES = re.compile(r"\b(a|an|the)\b")


def canonical_text(text: str) -> str:
    """Canonical Unicode form of `text`, safe to apply before any metric: NFC (a nukta letter
    typed precomposed, U+0958 क़, equals base + nukta, U+0915 U+093C; likewise in Bengali,
    Gurmukhi and Odia); zero-width joiner / non-joiner and the other invisible format characters
    (soft hyphen, BOM, bidi marks) removed, but a zero-width space made a space, since it marks a
    word break; Malayalam atomic chillus as consonant + virama. Case, punctuation and
    compatibility characters are left alone."""
    text = unicodedata.normalize("NFC", text)
    if not text.isascii():
        text = "".join(_canonical_char(ch) for ch in text)
        text = unicodedata.normalize("NFC", text)
    return text


def _canonical_char(ch: str) -> str:
    if ch in _SPELLED_OUT:
        return _SPELLED_OUT[ch]
    return "" if unicodedata.category(ch) == "Cf" else ch


def is_english(language: str | None) -> bool:
    """True if `language` names English ("en", "eng", "English", "en-IN"); None is not English.

    An unknown language raises `ConfigError` naming the close matches, so that a typo such as
    "engl" cannot silently switch off article removal.
    """
    return language is not None and check_language(language) == "en"


def _drop_punctuation_and_symbols(text: str) -> str:
    # Deleted, not replaced by a space, as the SQuAD script does ("don't" -> "dont",
    # "1990-2000" and "1990–2000" -> "19902000").
    return "".join(ch for ch in text if unicodedata.category(ch)[0] not in "PS")


# Compatibility forms that NFKC would turn into something else than the same text: "½" becomes
# "1⁄2" (then "12" once the fraction slash goes), "x²" becomes "x2".
_KEPT_COMPAT_TAGS = ("<fraction>", "<super>", "<sub>")


def _fold_compatibility_forms(text: str) -> str:
    """NFKC where it is safe: full-width and half-width forms, ligatures, Arabic presentation
    forms, no-break spaces, styled letters; fractions, superscripts and subscripts kept."""
    if text.isascii():
        return text
    folded = []
    for ch in text:
        decomposition = unicodedata.decomposition(ch)
        if decomposition.startswith("<") and not decomposition.startswith(_KEPT_COMPAT_TAGS):
            folded.append(unicodedata.normalize("NFKC", ch))
        else:
            folded.append(ch)
    return unicodedata.normalize("NFC", "".join(folded))


def ascii_digits(text: str) -> str:
    """Native digits (०-९, ೦-೯, ...) as ASCII digits: "१९४७" and "1947" are the same answer."""
    return "".join(
        str(unicodedata.decimal(ch)) if not ch.isascii() and ch.isdecimal() else ch for ch in text
    )


def normalize_answer(text: str, language: str | None) -> str:
    """Normalise an answer before exact match / token F1 (SQuAD v1.1 style, Unicode-aware), in
    the SQuAD order: `canonical_text`, then compatibility forms folded where safe, case folded
    and native digits as ASCII; every Unicode punctuation (P*) and symbol (S*) character deleted
    (danda, curly quotes, dashes, Arabic comma, all of ASCII punctuation), before and after the
    folding, since NFKC turns an overline into a space and a combining mark, and "⑴" into "(1)";
    English articles removed only for English; whitespace collapsed."""
    text = _drop_punctuation_and_symbols(canonical_text(text))
    text = _fold_compatibility_forms(text).casefold()
    text = _drop_punctuation_and_symbols(ascii_digits(text))
    if is_english(language):
        text = _ENGLISH_ARTICLES.sub(" ", text)
    return " ".join(text.split())
