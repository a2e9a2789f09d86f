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
RTL_SCRIPTS = frozenset({"Arabic", "Hebrew"})  # written right to left (Urdu, Sindhi, Kashmiri)

# Script -> its Unicode blocks (first, last), last inclusive. Blocks, not the exact per-character
# Script property: good enough for telling Indic scripts apart and cheap to look up.
_SCRIPT_BLOCKS: dict[str, tuple[tuple[int, int], ...]] = {
    # ASCII, Latin-1 and Extended-A/B (× and ÷ are not letters), IPA, Latin Extended
    # Additional (ā, ṭ, ṇ in transliteration)
    "Latin": ((0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x250, 0x2AF), (0x1E00, 0x1EFF)),
    "Greek": ((0x0370, 0x03FF),),
    "Cyrillic": ((0x0400, 0x052F),),
    "Hebrew": ((0x0590, 0x05FF),),
    # with presentation forms A and B
    "Arabic": ((0x600, 0x6FF), (0x750, 0x77F), (0x8A0, 0x8FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)),
    "Devanagari": ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF)),  # Extended, Vedic
    "Bengali": ((0x0980, 0x09FF),),  # also Assamese (and Manipuri in Bengali script)
    "Gurmukhi": ((0x0A00, 0x0A7F),),
    "Gujarati": ((0x0A80, 0x0AFF),),
    "Oriya": ((0x0B00, 0x0B7F),),
    "Tamil": ((0x0B80, 0x0BFF), (0x11FC0, 0x11FFF)),  # Tamil Supplement
    "Telugu": ((0x0C00, 0x0C7F),),
    "Kannada": ((0x0C80, 0x0CFF),),
    "Malayalam": ((0x0D00, 0x0D7F),),
    "Sinhala": ((0x0D80, 0x0DFF),),
    "Thai": ((0x0E00, 0x0E7F),),
    "Tibetan": ((0x0F00, 0x0FFF),),
    "Myanmar": ((0x1000, 0x109F),),
    "Ol_Chiki": ((0x1C50, 0x1C7F),),
    "Meetei_Mayek": ((0xAAE0, 0xAAFF), (0xABC0, 0xABFF)),  # with Meetei Mayek Extensions
    "Chakma": ((0x11100, 0x1114F),),
    "Hiragana": ((0x3040, 0x309F),),
    "Katakana": ((0x30A0, 0x30FF),),
    "Han": ((0x3400, 0x4DBF), (0x4E00, 0x9FFF)),
    "Hangul": ((0xAC00, 0xD7AF), (0x1100, 0x11FF)),
}
_BLOCKS = sorted((a, b, script) for script, blocks in _SCRIPT_BLOCKS.items() for a, b in blocks)
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
    return Counter(script for script in map(char_script, text) if script is not None)
