"""Strict parsing of a judge's output: exactly one schema-valid JSON object, or invalid.

No path turns a failure into a score: an unparsable, ambiguous or out-of-range output is an
`invalid` verdict that keeps the raw text and the reason.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from parakh.judging.rubric import Rubric

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class Verdict:
    score: int | None
    justification: str | None
    reason: str | None = None

    @property
    def valid(self) -> bool:
        return self.score is not None


def json_objects(text: str) -> list[object]:
    """Every top-level JSON value that starts with '{' in `text`, in order."""
    # strict=False admits raw newlines inside strings, which grammar-constrained decoders emit;
    # the object must still be well formed.
    decoder = json.JSONDecoder(strict=False)
    found, i = [], 0
    while (start := text.find("{", i)) != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            i = start + 1
            continue
        found.append(value)
        i = end
    return found


def parse_verdict(raw: str, rubric: Rubric) -> Verdict:
    if not raw or not raw.strip():
        return Verdict(None, None, "empty output")
    fenced = _FENCE.findall(raw)
    candidates = json_objects("\n".join(fenced)) if fenced else json_objects(raw)
    objects = [o for o in candidates if isinstance(o, dict)]
    if not objects:
        return Verdict(None, None, "no JSON object in output")
    if len(objects) > 1:
        return Verdict(None, None, f"{len(objects)} JSON objects in output; expected exactly one")
    obj = objects[0]
    keys = {k.lower(): k for k in obj}
    if "score" not in keys:
        return Verdict(None, None, "JSON object has no 'Score'")
    score = obj[keys["score"]]
    if isinstance(score, bool) or not isinstance(score, int):
        if isinstance(score, float) and score.is_integer():
            score = int(score)
        else:
            return Verdict(None, None, f"Score is not an integer: {score!r}")
    if not rubric.scale.min <= score <= rubric.scale.max:
        return Verdict(None, None, f"Score {score} outside {rubric.scale.min}..{rubric.scale.max}")
    justification = obj.get(keys.get("justification", "Justification"))
    if not isinstance(justification, str):
        return Verdict(None, None, "JSON object has no string 'Justification'")
    return Verdict(score, justification)
