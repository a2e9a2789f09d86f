"""Rubrics are data (conf/rubric/<name>.yaml): criteria, descriptions, a scoring table.

A HEALTH-PARIKSHA rubric has one criterion, written as `Score` (0..2) beside a `Justification`;
the IndicQuest rubric scores six criteria (1..5, decimals allowed) in one JSON object, as its
authors did (`split()` makes one call per criterion). Each criterion is the metric of its rows,
on the rubric's scale and `direction` (higher unless the file or the criterion says lower).
"""

from __future__ import annotations

import json
import math
from typing import Any

from pydantic import Field, model_validator

from parakh.config.base import Strict
from parakh.config.loading import load_named
from parakh.metrics.specs import Direction, MetricSpec

SCORE_KEY = "Score"
JUSTIFICATION_KEY = "Justification"
# The longest number llama.cpp's JSON grammar admits: sign, 16 integral digits, point, 16
# decimals, exponent with sign and 16 digits. Integer scores are enumerated, so exact.
_DECIMAL_SCORE_CHARS = 52
# A JSON string character under a grammar may be an escape "\\uXXXX": 6 bytes, and a byte-level
# tokenizer spends at most one token per byte.
_MAX_BYTES_PER_CHAR = 6


class Scale(Strict):
    min: int
    max: int
    integer: bool = Field(default=True, description="integers only; false admits decimals")

    @model_validator(mode="after")
    def _ordered(self) -> Scale:
        if self.min >= self.max:
            raise ValueError(f"scale min {self.min} must be below max {self.max}")
        return self

    def contains(self, score: float) -> bool:
        return math.isfinite(score) and self.min <= score <= self.max


class Criterion(Strict):
    """One scored quantity: `name` names its judge rows, `key` is the JSON key the judge writes."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    key: str = Field(min_length=1)
    title: str
    description: str
    direction: Direction | None = Field(
        default=None, description="which way is better; None: the rubric's direction"
    )


class Rubric(Strict):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str
    description: str
    uses_reference: bool
    scale: Scale
    scoring: dict[int, str | list[str]] = Field(
        description="what each score means: one text, or the criteria of that level in order "
        "(HEALTH-PARIKSHA's Appendix C lists them as (a), (b), (c))"
    )
    criteria: list[Criterion] = Field(
        default_factory=list,
        description="several criteria scored in one call; empty: the rubric is one criterion "
        "whose score the judge writes as `Score`",
    )
    justification: bool = Field(
        default=True, description="the judge also writes a `Justification` string"
    )
    direction: Direction = Field(
        default="higher", description="which way is better for every criterion's score"
    )

    @model_validator(mode="after")
    def _check(self) -> Rubric:
        if self.scale.integer:
            expected = set(range(self.scale.min, self.scale.max + 1))
            if set(self.scoring) != expected:
                raise ValueError(f"scoring must have one line per score {sorted(expected)}")
        elif not {self.scale.min, self.scale.max} <= set(self.scoring) or not all(
            self.scale.min <= s <= self.scale.max for s in self.scoring
        ):
            raise ValueError(
                f"scoring must anchor both ends of the scale {self.scale.min}..{self.scale.max}"
            )
        names = [c.name for c in self.criteria]
        keys = [key_id(c.key) for c in self.criteria]
        if len(set(names)) != len(names) or len(set(keys)) != len(keys):
            raise ValueError("criteria names and keys must be unique")
        if self.justification and key_id(JUSTIFICATION_KEY) in keys:
            raise ValueError(f"a criterion may not use the key {JUSTIFICATION_KEY!r}")
        return self

    def criteria_list(self) -> list[Criterion]:
        """The criteria this rubric scores, in output order."""
        if self.criteria:
            return list(self.criteria)
        return [
            Criterion(name=self.name, key=SCORE_KEY, title=self.title, description=self.description)
        ]

    @property
    def metrics(self) -> list[str]:
        return [c.name for c in self.criteria_list()]

    def metric_specs(self) -> list[MetricSpec]:
        """Each criterion's metric: the rubric's scale, its direction, a mean per item."""
        return [
            MetricSpec(
                c.name,
                c.direction or self.direction,
                float(self.scale.min),
                float(self.scale.max),
                "mean",
                f"{self.title}: {c.title}" if c.title != self.title else self.title,
            )
            for c in self.criteria_list()
        ]

    def split(self) -> list[Rubric]:
        """One single-criterion rubric per criterion (one judge call each), same keys and scale."""
        if len(self.criteria) <= 1:
            return [self]
        return [
            self.model_copy(update={"name": c.name, "title": c.title, "criteria": [c]})
            for c in self.criteria
        ]

    def criteria_text(self) -> str:
        """One line per criterion: `Key: description` (for prompts that list the criteria)."""
        return "\n".join(f"{c.key}: {c.description}" for c in self.criteria_list())

    def output_format(self) -> str:
        """The JSON object the judge must write, with placeholders, for the prompt."""
        kind = "integer" if self.scale.integer else "number"
        placeholder = f"<{kind} {self.scale.min} to {self.scale.max}>"
        parts = [f'"{c.key}": {placeholder}' for c in self.criteria_list()]
        if self.justification:
            parts.append(f'"{JUSTIFICATION_KEY}": "<a brief justification>"')
        return "{" + ", ".join(parts) + "}"

    def _score_schema(self) -> dict[str, Any]:
        if self.scale.integer:
            return {
                "type": "integer",
                "minimum": self.scale.min,
                "maximum": self.scale.max,
                "enum": list(range(self.scale.min, self.scale.max + 1)),
            }
        return {"type": "number", "minimum": self.scale.min, "maximum": self.scale.max}

    def json_schema(self, max_justification_chars: int = 200) -> dict[str, Any]:
        """The schema a constrained decoder enforces: each score in range, a bounded
        `Justification`. OpenAI's strict mode gets what it supports
        (`backends.structured_outputs.strict_schema`); the parser checks range and length anyway."""
        properties: dict[str, Any] = {c.key: self._score_schema() for c in self.criteria_list()}
        if self.justification:
            properties[JUSTIFICATION_KEY] = {"type": "string", "maxLength": max_justification_chars}
        return {
            "type": "object",
            "properties": properties,
            "required": list(properties),
            "additionalProperties": False,
        }

    def max_output_tokens(self, max_justification_chars: int) -> int:
        """An upper bound on the tokens (at most one a byte) of any output the schema admits,
        below which `max_tokens` could truncate a schema-valid answer into an invalid one."""
        score_chars = (
            max(len(str(self.scale.min)), len(str(self.scale.max)))
            if self.scale.integer
            else _DECIMAL_SCORE_CHARS
        )
        keys = [c.key for c in self.criteria_list()]
        size = 2 + 2  # braces and their spaces
        for key in keys:
            size += len(json.dumps(key).encode()) + 1 + 3 + score_chars  # "key": score, + spaces
        if self.justification:
            size += len(json.dumps(JUSTIFICATION_KEY).encode()) + 1 + 3 + 2
            size += _MAX_BYTES_PER_CHAR * max_justification_chars
        return size


def key_id(key: str) -> str:
    """A key compared without case, spaces, hyphens or underscores ("Factual Accuracy")."""
    return "".join(ch for ch in key.casefold() if ch.isalnum())


def load_rubric(name: str) -> Rubric:
    return load_named("rubric", name, Rubric)
