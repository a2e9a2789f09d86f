"""A form of text for pattern detection: invisible characters gone, look-alike letters as Latin.

Detection patterns (the judge-injection cues) are written in plain letters, and an attacker
writes "ig<U+200B>nore" (a zero-width space), "іgnоrе" (Cyrillic і, о, е), "ｉｇｎｏｒｅ" (full
width), "𝐢𝐠𝐧𝐨𝐫𝐞" (mathematical bold) or "ïgnöre", so that a reader sees the word and a regex
does not. `skeleton` undoes each of these; `detection_forms` gives the forms a detector should
search, since a zero-width space may hide inside a word or stand for the space between two.

Lossy on purpose (Cyrillic and Greek look-alikes become Latin, Latin accents go, every script's
digits become ASCII): for detection only, never for display or metrics.
"""

from __future__ import annotations

import unicodedata

from parakh.text.normalize import ZERO_WIDTH_SPACE, ascii_digits, canonical_text

# Characters that render as nothing but are not format characters (category Cf, which
# `canonical_text` already removes): the combining grapheme joiner, variation selectors,
# Hangul fillers and the braille blank.
_INVISIBLE = frozenset(
    ["\u034f", "\u115f", "\u1160", "\u2800", "\u3164", "\uffa0"]
    + [chr(c) for c in range(0xFE00, 0xFE10)]
    + [chr(c) for c in range(0xE0100, 0xE01F0)]
)

# Letters of other scripts drawn like a Latin letter (after NFKC, before case folding), as used
# to hide a word from a filter. A small explicit table, not Unicode's whole confusables list:
# Cyrillic and Greek capitals and small letters, Latin small capitals and a few others.
_LOOKALIKES = (  # (letters, the Latin letters they are drawn like, position by position)
    ("АВЕКМНОРСТУХЅІЈҮԚԜӀ", "ABEKMHOPCTYXSIJYQWI"),  # Cyrillic capitals
    # Cyrillic small letters (к, м, н, т, в: the shapes of small capitals)
    ("аеорсухѕіјһԁԛԝӏүѵкмнтв", "aeopcyxsijhdqwlyvkmhtb"),
    ("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX"),  # Greek capitals
    ("αεικνορτυχγω", "aeikvoptuxyw"),  # Greek small letters
    ("օհսո", "ohun"),  # Armenian
    # Latin small capitals, dotless i, script g
    ("ᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢıɡ", "abcdeghijklmnoprstuvwyzig"),
    # Arabic-script letters Urdu writers type from an Arabic keyboard: yeh, kaf, heh
    ("\u064a\u0649\u0643\u0647", "\u06cc\u06cc\u06a9\u06c1"),
)
_LATIN_LOOKALIKES = str.maketrans(
    "".join(letters for letters, _ in _LOOKALIKES), "".join(latin for _, latin in _LOOKALIKES)
)


def _plain_char(ch: str) -> str:
    # U+0300-U+036F, Combining Diacritical Marks: Latin accents, which no Indic script uses
    return "" if ch in _INVISIBLE or "\u0300" <= ch <= "\u036f" else ch


def skeleton(text: str, *, zero_width_space: str = "") -> str:
    """`text` as a detector should read it: zero-width spaces replaced by `zero_width_space`,
    other invisible characters removed, NFKC (full-width, mathematical and other compatibility
    letters become plain ones), Latin accents removed, look-alike letters mapped to Latin,
    every script's decimal digits as ASCII, case folded."""
    text = canonical_text(text.replace(ZERO_WIDTH_SPACE, zero_width_space))
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    text = unicodedata.normalize("NFC", ascii_digits("".join(map(_plain_char, text))))
    return text.translate(_LATIN_LOOKALIKES).casefold()


def detection_forms(text: str) -> tuple[str, ...]:
    """The skeletons to search: a zero-width space read as nothing (it hid inside a word) and,
    if there is one, as a space (it stood between two words)."""
    joined = skeleton(text)
    if ZERO_WIDTH_SPACE not in text:
        return (joined,)
    return (joined, skeleton(text, zero_width_space=" "))


def pattern_form(pattern: str) -> str:
    """A detection pattern in the Unicode form `skeleton` gives text (NFC, nukta letters and
    Malayalam chillus as `canonical_text` writes them); its regex syntax is ASCII, untouched."""
    return unicodedata.normalize("NFC", canonical_text(unicodedata.normalize("NFKC", pattern)))
