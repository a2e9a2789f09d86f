"""Rubrics are data (conf/rubric/<name>.yaml): a metric name, a description, a scoring table."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator

from parakh.config.loading import load_named


class Scale(BaseModel):
    model_config = ConfigDict(extra="forbid")
    min: int
    max: int


class Rubric(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    title: str
    description: str
    uses_reference: bool
    scale: Scale
    scoring: dict[int, str]

    @model_validator(mode="after")
    def _table_covers_scale(self) -> Rubric:
        expected = set(range(self.scale.min, self.scale.max + 1))
        if set(self.scoring) != expected:
            raise ValueError(f"scoring must have one line per score {sorted(expected)}")
        return self

    def scoring_table(self) -> str:
        return "\n".join(f"{score}: {text}" for score, text in sorted(self.scoring.items()))

    def json_schema(self, max_justification_chars: int = 200) -> dict[str, Any]:
        """The schema a constrained decoder enforces: {Score: int in range, Justification}."""
        return {
            "type": "object",
            "properties": {
                "Score": {
                    "type": "integer",
                    "minimum": self.scale.min,
                    "maximum": self.scale.max,
                    "enum": list(range(self.scale.min, self.scale.max + 1)),
                },
                "Justification": {"type": "string", "maxLength": max_justification_chars},
            },
            "required": ["Score", "Justification"],
            "additionalProperties": False,
        }


def load_rubric(name: str) -> Rubric:
    rubric: Rubric = load_named("rubric", name, Rubric)
    return rubric
