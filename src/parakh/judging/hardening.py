"""Detect responses that address the judge instead of the patient (prompt injection).

A response under evaluation is data. One that tells the evaluator to ignore its rubric, asks for
a score, carries a fake verdict (JSON with a `Score`), or imitates prompt markup is flagged, and
the judge stage records the cues on its rows so the report can count them. Flagging does not
change the score: the response reaches the judge escaped and delimited (`llm_judge.escape_block`)
and scores are read only from the judge's own output (`parse.parse_verdict`).

The patterns, in every language, are the table in `injection_phrases.yaml` (which says how they
are written), read once. They are written to leave ordinary medical text alone: "do not
ignore your doctor's instructions", "a visual acuity score of 6/6", "rate your pain from 1 to
10" are not injections. They search the text as `parakh.text.lookalikes` normalises it, so a
zero-width space inside "ignore", Cyrillic or full-width look-alike letters, or native digits do
not hide a request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

import yaml

from parakh.text.lookalikes import detection_forms, pattern_form

_FRAGMENT = re.compile(r"\{([A-Z_]+)\}")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


@dataclass(frozen=True)
class Phrase:
    cue: str  # override_instructions, score_request, addresses_judge, fake_verdict, ...
    language: str  # our code; "hi-Latn": Hindi in Latin letters; "any": markup, fake verdicts
    pattern: str
    example: str


def _load() -> tuple[Phrase, ...]:
    table = yaml.safe_load(files("parakh.judging").joinpath("injection_phrases.yaml").read_bytes())
    fragments: dict[str, str] = {}

    def expand(text: str) -> str:  # whitespace is layout; {NAME} is a fragment defined above
        return _FRAGMENT.sub(lambda m: fragments[m[1]], "".join(text.split()))

    for name, text in table["fragments"].items():
        fragments[name] = expand(text)
    return tuple(
        Phrase(phrase["cue"], language, expand(phrase["pattern"]), phrase["example"])
        for language, phrases in table["phrases"].items()
        for phrase in phrases
    )


PHRASES = _load()
_CUE_RES = tuple((p.cue, re.compile(pattern_form(p.pattern))) for p in PHRASES)


def injection_cues(response: str | None) -> list[str]:
    """The kinds of judge-directed content in a response, sorted; empty when there is none."""
    if not response or not response.strip():
        return []
    forms = [form.translate(_QUOTES) for form in detection_forms(response)]
    return sorted({name for name, regex in _CUE_RES if any(regex.search(f) for f in forms)})
