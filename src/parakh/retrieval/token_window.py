"""Cut a text to what an embedder reads, without tokenizing the rest of it.

Both cuts tokenize only prefixes of doubling length, each ended at a word end (just before
whitespace), so a 5 MB text costs a few tokenizations of some kilobytes. The tokenizers behind
our embedders (WordPiece, SentencePiece) split on whitespace first, so a prefix ending at a word
end tokenizes to exactly the first tokens of the whole text; no character budget could promise
that. A text with no whitespace in a probe is cut inside the word, where only the last few
tokens of the prefix can differ.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator

TokenCount = Callable[[str], int]

_WORD_END = re.compile(r"\S(?=\s)")
_LOOK_BACK = 4_096  # characters searched back from a probe for a word end


def _word_end(text: str, end: int) -> int:
    """`end` moved back to the nearest word end (a non-space before a space), or `end` itself."""
    start = max(0, end - _LOOK_BACK)
    ends = [m.end() for m in _WORD_END.finditer(text, start, end + 1) if m.end() <= end]
    return ends[-1] if ends else end


def _probes(text: str, first: int) -> Iterator[int]:
    """Prefix ends tried in turn: `first`, twice that, ... characters, each moved back to a word
    end; last, the whole text. They depend only on the text up to them, so a text and any
    longer text that starts with it are probed alike."""
    size = first
    while size < len(text):
        yield _word_end(text, size)
        size *= 2
    yield len(text)


def cut_beyond_window(text: str, window: int, count: TokenCount, first: int) -> str:
    """`text`, or its shortest probed prefix that already holds more than `window` tokens: for
    a model that truncates to `window` tokens, the same input, so the same vector."""
    for end in _probes(text, first):
        if end == len(text) or count(text[:end]) > window:
            return text[:end]
    return text  # unreachable: the last probe is the whole text


def cut_to_budget(text: str, budget: int, count: TokenCount, first: int) -> str:
    """`text` if it holds at most `budget` tokens, else its longest prefix ending at a word end
    that does (found by bisection inside the first probe over the budget). Idempotent, and the
    same for any text that starts with the kept prefix and goes past that probe."""
    fitting = 0
    for end in _probes(text, first):
        if count(text[:end]) <= budget:
            if end == len(text):
                return text
            fitting = end
            continue
        return text[: _longest_fitting(text, fitting, end, budget, count)]
    return text  # unreachable: the last probe is the whole text


def _longest_fitting(text: str, lo: int, hi: int, budget: int, count: TokenCount) -> int:
    """The largest word end in (lo, hi) whose prefix holds at most `budget` tokens, else `lo`;
    character positions when the stretch has no word end."""
    ends = [m.end() for m in _WORD_END.finditer(text, lo, hi)] or list(range(lo + 1, hi))
    fitting = bisect_right(ends, budget, key=lambda end: count(text[:end]))
    return ends[fitting - 1] if fitting else lo
