"""A script-aware word tokenizer: a word is a maximal run of letters (L*), combining marks (M*)
and decimal digits (Nd), so vowel signs, viramas, nuktas and anusvaras stay inside their word.

Python's `\\w` does not count combining marks (`re.findall(r"\\w+", "हिन्दी")` gives
`['ह', 'न', 'द']`), and rouge-score's tokenizer deletes everything outside [a-z0-9], so identical
Hindi strings score 0 with it. On lower-cased ASCII text the words are exactly the runs of
[a-z0-9] that rouge-score keeps.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from itertools import groupby

from parakh.text.normalize import canonical_text


@lru_cache(maxsize=8192)
def is_word_char(ch: str) -> bool:
    """True for letters, combining marks and decimal digits of any script."""
    category = unicodedata.category(ch)
    return category[0] in "LM" or category == "Nd"


def tokenize(text: str, lowercase: bool = True) -> list[str]:
    """The words of `text` in canonical form (`canonical_text`: both nukta spellings the same
    token, zero-width joiners removed so they do not split a word); spaces, punctuation (danda
    included) and symbols separate words."""
    text = canonical_text(text)
    if lowercase:
        text = text.lower()
    return ["".join(run) for is_word, run in groupby(text, key=is_word_char) if is_word]
