"""Detect responses that address the judge instead of the patient (prompt injection).

A response under evaluation is data. One that tells the evaluator to ignore its rubric, asks for
a score, carries a fake verdict (JSON with a `Score`), or imitates prompt markup is flagged, and
the judge stage records the cues on its rows so the report can count them. Flagging does not
change the score: the response reaches the judge escaped and delimited (`prompt.escape_block`)
and scores are read only from the judge's own output (`parse.parse_verdict`).

The patterns (`injection_phrases`) are written to leave ordinary medical text alone: "do not
ignore your doctor's instructions", "a visual acuity score of 6/6", "rate your pain from 1 to
10" are not injections. They search the text as `parakh.text.lookalikes` normalises it, so a
zero-width space inside "ignore", Cyrillic or full-width look-alike letters, or native digits do
not hide a request.
"""

from __future__ import annotations

import re

from parakh.judging.injection_phrases import PHRASES
from parakh.text.lookalikes import detection_forms, pattern_form

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_CUE_RES = tuple((p.cue, re.compile(pattern_form(p.pattern))) for p in PHRASES)


def injection_cues(response: str | None) -> list[str]:
    """The kinds of judge-directed content in a response, sorted; empty when there is none."""
    if not response or not response.strip():
        return []
    forms = [form.translate(_QUOTES) for form in detection_forms(response)]
    return sorted({name for name, regex in _CUE_RES if any(regex.search(f) for f in forms)})
