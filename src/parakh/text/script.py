"""Writing-system detection by Unicode block: which script a text is written in, and how mixed.

Only letters and combining marks count (Unicode categories L* and M*); digits, punctuation,
spaces and symbols are "Common" and ignored, so "1920 में" is Devanagari. Script names are
Unicode script property values ("Devanagari", "Arabic", "Meetei_Mayek"); text with no letter is
"Unknown".
"""

from __future__ import annotations

import bisect
import unicodedata
from collections import Counter

UNKNOWN_SCRIPT = "Unknown"
OTHER_SCRIPT = "Other"

# (first, last, script), sorted by first; last is inclusive. Blocks, not the exact per-character
# Script property: good enough for telling Indic scripts apart and cheap to look up.
_BLOCKS: list[tuple[int, int, str]] = sorted(
    [
        (0x0041, 0x005A, "Latin"),
        (0x0061, 0x007A, "Latin"),
        (0x00C0, 0x024F, "Latin"),  # Latin-1 letters, Extended-A/B (× and ÷ are not letters)
        (0x0250, 0x02AF, "Latin"),  # IPA
        (0x1E00, 0x1EFF, "Latin"),  # Latin Extended Additional (ā, ṭ, ṇ in transliteration)
        (0x0370, 0x03FF, "Greek"),
        (0x0400, 0x052F, "Cyrillic"),
        (0x0590, 0x05FF, "Hebrew"),
        (0x0600, 0x06FF, "Arabic"),
        (0x0750, 0x077F, "Arabic"),
        (0x08A0, 0x08FF, "Arabic"),
        (0xFB50, 0xFDFF, "Arabic"),  # presentation forms A
        (0xFE70, 0xFEFF, "Arabic"),  # presentation forms B
        (0x0900, 0x097F, "Devanagari"),
        (0xA8E0, 0xA8FF, "Devanagari"),  # Devanagari Extended
        (0x1CD0, 0x1CFF, "Devanagari"),  # Vedic Extensions
        (0x0980, 0x09FF, "Bengali"),  # also Assamese (and Manipuri in Bengali script)
        (0x0A00, 0x0A7F, "Gurmukhi"),
        (0x0A80, 0x0AFF, "Gujarati"),
        (0x0B00, 0x0B7F, "Oriya"),
        (0x0B80, 0x0BFF, "Tamil"),
        (0x11FC0, 0x11FFF, "Tamil"),  # Tamil Supplement
        (0x0C00, 0x0C7F, "Telugu"),
        (0x0C80, 0x0CFF, "Kannada"),
        (0x0D00, 0x0D7F, "Malayalam"),
        (0x0D80, 0x0DFF, "Sinhala"),
        (0x0E00, 0x0E7F, "Thai"),
        (0x0F00, 0x0FFF, "Tibetan"),
        (0x1000, 0x109F, "Myanmar"),
        (0x1C50, 0x1C7F, "Ol_Chiki"),
        (0xAAE0, 0xAAFF, "Meetei_Mayek"),  # Meetei Mayek Extensions
        (0xABC0, 0xABFF, "Meetei_Mayek"),
        (0x11100, 0x1114F, "Chakma"),
        (0x3040, 0x309F, "Hiragana"),
        (0x30A0, 0x30FF, "Katakana"),
        (0x3400, 0x4DBF, "Han"),
        (0x4E00, 0x9FFF, "Han"),
        (0xAC00, 0xD7AF, "Hangul"),
        (0x1100, 0x11FF, "Hangul"),
    ]
)
_STARTS = [first for first, _, _ in _BLOCKS]


def char_script(char: str) -> str | None:
    """The script of one character, or None for a "Common" one (digit, punctuation, space)."""
    if unicodedata.category(char)[0] not in "LM":
        return None
    code = ord(char)
    i = bisect.bisect_right(_STARTS, code) - 1
    if i >= 0 and code <= _BLOCKS[i][1]:
        return _BLOCKS[i][2]
    return OTHER_SCRIPT


def script_counts(text: str) -> Counter[str]:
    """Letter (and combining-mark) count per script; Common characters are not counted."""
    counts: Counter[str] = Counter()
    for char in text:
        script = char_script(char)
        if script is not None:
            counts[script] += 1
    return counts
