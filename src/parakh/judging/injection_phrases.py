"""The judge-directed content `hardening` looks for, in every language: the table in
`injection_phrases.yaml` (which says how its patterns are written), read once."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

import yaml

_FRAGMENT = re.compile(r"\{([A-Z_]+)\}")


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
