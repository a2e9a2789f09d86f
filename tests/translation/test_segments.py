"""Sentence segmentation before translation and re-joining after, gaps kept exactly."""

from __future__ import annotations

import pytest

from parakh.text.sentences import segment

CASES = [
    ("नमस्ते। आप कैसे हैं?\n\nठीक हूँ", ["नमस्ते।", "आप कैसे हैं?", "ठीक हूँ"], ["", " ", "\n\n", ""]),
    ("  Use drops. Wear glasses!  ", ["Use drops.", "Wear glasses!"], ["  ", " ", "  "]),
    ("ಕಣ್ಣಿನ ಹನಿ ಹಾಕಿ. ನೀರು ಬೇಡ", ["ಕಣ್ಣಿನ ಹನಿ ಹಾಕಿ.", "ನೀರು ಬೇಡ"], ["", " ", ""]),
    ("one line\nanother line", ["one line", "another line"], ["", "\n", ""]),
    ("", [], [""]),
    ("   \n ", [], ["   \n "]),
]


@pytest.mark.parametrize(("text", "sentences", "gaps"), CASES)
def test_segments_and_gaps_rebuild_the_text(
    text: str, sentences: list[str], gaps: list[str]
) -> None:
    seg = segment(text)
    assert list(seg.sentences) == sentences
    assert list(seg.gaps) == gaps
    assert seg.join(list(seg.sentences)) == text


def test_join_puts_translations_between_the_original_gaps() -> None:
    seg = segment("पहला वाक्य। दूसरा वाक्य॥\nतीसरा")
    assert seg.join(["First.", "Second.", "Third"]) == "First. Second.\nThird"
    with pytest.raises(ValueError):
        seg.join(["only one"])


def test_unsplit_keeps_the_text_whole_but_trims_the_ends() -> None:
    seg = segment(" a. b. ", split=False)
    assert seg.sentences == ("a. b.",)
    assert seg.join(["x"]) == " x "
