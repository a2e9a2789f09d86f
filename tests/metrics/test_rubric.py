"""Rubrics as data: the shipped rubrics load, schemas and output bounds are right."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from parakh.config.loading import available
from parakh.errors import ConfigError
from parakh.judging.parse import parse_verdict
from parakh.metrics.rubric import Rubric, load_rubric

HEALTH_PARIKSHA = ["factual_correctness", "semantic_similarity", "coherence", "conciseness"]


def test_every_rubric_file_loads() -> None:
    names = available("rubric")
    assert set(HEALTH_PARIKSHA) | {"indicquest"} <= set(names)
    for name in names:
        assert load_rubric(name).name == name


@pytest.mark.parametrize("name", HEALTH_PARIKSHA)
def test_health_pariksha_rubrics(name: str) -> None:
    rubric = load_rubric(name)
    assert (rubric.scale.min, rubric.scale.max, rubric.scale.integer) == (0, 2, True)
    assert rubric.metrics == [name]
    assert rubric.uses_reference == (name in {"factual_correctness", "semantic_similarity"})
    schema = rubric.json_schema(60)
    assert schema["required"] == ["Score", "Justification"]
    assert schema["properties"]["Score"]["enum"] == [0, 1, 2]
    assert schema["properties"]["Justification"]["maxLength"] == 60


def test_indicquest_scores_six_criteria_in_one_call_or_one_each() -> None:
    rubric = load_rubric("indicquest")
    assert rubric.metrics == [
        "iq_factual_accuracy",
        "iq_relevance",
        "iq_clarity",
        "iq_language_consistency",
        "iq_conciseness",
        "iq_overall",
    ]
    assert (rubric.scale.min, rubric.scale.max, rubric.scale.integer) == (1, 5, False)
    assert list(rubric.json_schema()["properties"]) == [
        "Factual Accuracy",
        "Relevance",
        "Clarity",
        "Language Consistency",
        "Conciseness",
        "Overall",
    ]
    parts = rubric.split()
    assert [p.metrics for p in parts] == [[m] for m in rubric.metrics]
    assert list(parts[0].json_schema()["properties"]) == ["Factual Accuracy"]
    assert parse_verdict('{"Factual Accuracy": 3.5}', parts[0]).scores == {
        "iq_factual_accuracy": 3.5
    }


def test_integer_scale_needs_a_line_per_score() -> None:
    with pytest.raises(ValidationError, match="one line per score"):
        Rubric(
            name="x",
            title="X",
            description="d",
            uses_reference=False,
            scale={"min": 0, "max": 2},
            scoring={0: "bad", 2: "good"},
        )


def test_unknown_rubric_names_the_close_matches() -> None:
    with pytest.raises(ConfigError, match="Unknown rubric 'coherance'. Did you mean 'coherence'"):
        load_rubric("coherance")


def _largest_output(rubric: Rubric, chars: int) -> str:
    """The longest text the llama.cpp JSON grammar admits: a space wherever one may go, the
    widest score, every justification character a 6-byte \\uXXXX escape."""
    parts = []
    for criterion in rubric.criteria_list():
        score = str(rubric.scale.min if rubric.scale.integer else 1.2345678901234567)
        parts.append(f"{json.dumps(criterion.key)}: {score}")
    if rubric.justification:
        parts.append('"Justification": "' + "\\u0915" * chars + '"')
    return "{ " + ", ".join(parts) + " } "


@pytest.mark.parametrize("name", [*HEALTH_PARIKSHA, "indicquest"])
def test_output_bound_holds_the_largest_schema_valid_output(name: str) -> None:
    rubric = load_rubric(name)
    largest = _largest_output(rubric, 60)
    assert parse_verdict(largest, rubric).valid
    assert len(largest.encode()) <= rubric.max_output_tokens(60)
