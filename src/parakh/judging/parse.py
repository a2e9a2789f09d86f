"""Strict parsing of a judge's output: exactly one schema-valid JSON object, or invalid.

No path turns a failure into a score. The output must be one JSON object, optionally inside a
Markdown code fence, with nothing else around it; the object must hold exactly the rubric's
keys (matched without case, spaces or underscores), each score a JSON number within the scale
(an integer where the scale is integral; never a string, a boolean, NaN or infinity), and a
string `Justification` where the rubric asks for one, no longer than the judge's limit. Anything
else is an `invalid` verdict with the reason, and the stage keeps the raw text beside it.

These checks hold whatever the backend enforced while decoding: a hosted API's strict schema
cannot express a non-integer score's range or a string's length
(`parakh.backends.structured_outputs`), so a score outside the scale is invalid here, never
clipped, and so is an over-long justification.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from parakh.metrics.rubric import JUSTIFICATION_KEY, Rubric, key_id

_OPENING_FENCE = re.compile(r"```[ \t]*(?:json)?[ \t]*\n?", re.IGNORECASE)


@dataclass(frozen=True)
class Verdict:
    """Scores by criterion name, or the reason there are none."""

    scores: dict[str, float] = field(default_factory=dict)
    justification: str | None = None
    reason: str | None = None

    @property
    def valid(self) -> bool:
        return self.reason is None and bool(self.scores)


class _Refused(ValueError):
    """A JSON value the decoder refuses (a duplicate key, NaN or infinity); says why."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _Refused(f"duplicate key {key!r} in the JSON object")
        seen[key] = value
    return seen


def _no_constant(name: str) -> Any:
    raise _Refused(f"score is {name}, not a finite number")


# strict=False admits raw newlines inside strings, which grammar-constrained decoders emit; the
# value must still be well formed.
_DECODER = json.JSONDecoder(
    strict=False, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant
)


@dataclass
class _Scan:
    values: list[tuple[int, int, Any]] = field(default_factory=list)  # start, end, value
    problems: list[str] = field(default_factory=list)
    truncated: bool = False


def _scan_json(text: str) -> _Scan:
    """Every top-level JSON object or array in `text`, in order, and what failed to decode."""
    scan = _Scan()
    i = 0
    while True:
        starts = [p for p in (text.find("{", i), text.find("[", i)) if p != -1]
        if not starts:
            return scan
        start = min(starts)
        try:
            value, end = _DECODER.raw_decode(text, start)
        except _Refused as e:
            scan.problems.append(str(e))
            i = start + 1
            continue
        except json.JSONDecodeError as e:
            # The text ends inside the value: an unclosed string, or nothing left to read.
            if text[start] == "{" and (
                e.msg.startswith("Unterminated string") or e.pos >= len(text.rstrip())
            ):
                scan.truncated = True
            i = start + 1
            continue
        scan.values.append((start, end, value))
        i = end


def _outside_text(text: str, start: int, end: int) -> str:
    """What surrounds the object once whitespace and one Markdown code fence are removed."""
    before, after = text[:start].strip(), text[end:].strip()
    fence = _OPENING_FENCE.fullmatch(before + "\n") or _OPENING_FENCE.fullmatch(before)
    if fence and after in ("```", ""):  # an unclosed fence: the object itself is complete
        return ""
    return (before + " " + after).strip()


def _number(value: Any, rubric: Rubric, key: str) -> float | str:
    """The score as a float, or the reason it is not an admissible score."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{key} is not a number: {value!r}"
    if rubric.scale.integer and isinstance(value, float) and not value.is_integer():
        return f"{key} is not an integer: {value!r}"
    if not rubric.scale.contains(float(value)):
        return f"{key} {value!r} outside {rubric.scale.min}..{rubric.scale.max}"
    return float(value)


def verdict_from_object(
    obj: dict[str, Any], rubric: Rubric, max_justification_chars: int | None = None
) -> Verdict:
    """Check one decoded object against the rubric's keys, scale and justification (at most
    `max_justification_chars` characters; None: any length)."""
    by_id: dict[str, list[str]] = {}
    for key in obj:
        by_id.setdefault(key_id(key), []).append(key)
    for keys in by_id.values():
        if len(keys) > 1:
            return Verdict(reason=f"keys {keys} name the same field")
    scores: dict[str, float] = {}
    expected = {key_id(c.key) for c in rubric.criteria_list()} | {key_id(JUSTIFICATION_KEY)}
    unexpected = [k for ident, (k, *_) in by_id.items() if ident not in expected]
    if unexpected:
        return Verdict(reason=f"unexpected key(s) {unexpected} in the JSON object")
    for criterion in rubric.criteria_list():
        found = by_id.get(key_id(criterion.key))
        if not found:
            return Verdict(reason=f"JSON object has no {criterion.key!r}")
        score = _number(obj[found[0]], rubric, criterion.key)
        if isinstance(score, str):
            return Verdict(reason=score)
        scores[criterion.name] = score
    justification_keys = by_id.get(key_id(JUSTIFICATION_KEY))
    justification = obj[justification_keys[0]] if justification_keys else None
    if justification is None and rubric.justification:
        return Verdict(reason=f"JSON object has no {JUSTIFICATION_KEY!r}")
    if justification is not None and not isinstance(justification, str):
        return Verdict(reason=f"{JUSTIFICATION_KEY} is not a string: {justification!r}")
    limit = max_justification_chars
    if justification is not None and limit is not None and len(justification) > limit:
        return Verdict(
            reason=f"{JUSTIFICATION_KEY} is {len(justification)} characters, over the limit of "
            f"{limit} (judge.max_justification_chars)"
        )
    return Verdict(scores=scores, justification=justification)


def json_object(raw: str | None) -> dict[str, Any] | str:
    """The one JSON object of a judge's raw output (optionally in a code fence, nothing else
    around it), or the reason there is none."""
    if raw is None or not raw.strip():
        return "empty output"
    scan = _scan_json(raw)
    objects = [(s, e, v) for s, e, v in scan.values if isinstance(v, dict)]
    arrays_with_objects = [
        v for _, _, v in scan.values if isinstance(v, list) and any(isinstance(x, dict) for x in v)
    ]
    if scan.problems:
        return scan.problems[0]
    if arrays_with_objects:
        return "a JSON array where one JSON object was expected"
    if len(objects) > 1:
        return f"{len(objects)} JSON objects in output; expected exactly one"
    if not objects:
        if scan.truncated:
            return "truncated output: the JSON object is not closed"
        return "no JSON object in output"
    start, end, obj = objects[0]
    if scan.truncated:
        return "a second, truncated JSON object follows the first"
    outside = _outside_text(raw, start, end)
    if outside:
        shown = outside if len(outside) <= 60 else outside[:57] + "..."
        return f"text outside the JSON object: {shown!r}"
    found: dict[str, Any] = obj
    return found


def parse_verdict(
    raw: str | None, rubric: Rubric, max_justification_chars: int | None = None
) -> Verdict:
    """The verdict in a judge's raw output, or an invalid verdict saying why there is none."""
    found = json_object(raw)
    if isinstance(found, str):
        return Verdict(reason=found)
    return verdict_from_object(found, rubric, max_justification_chars)
