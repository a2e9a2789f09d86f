"""Rubrics as data: the shipped rubrics load, schemas and output bounds are right."""

from __future__ import annotations

import json
import re
from pathlib import Path

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


# Appendix C of HEALTH-PARIKSHA, level by level and criterion by criterion ((a), (b), (c)): the
# phrases of Parakh's wording that carry each criterion (docs/fidelity.md, "criterion -> where
# the rubric carries it").
APPENDIX_C: dict[str, dict[int, list[tuple[str, ...]]]] = {
    "coherence": {
        0: [("very disorganised", "no clear structure", "hard to follow"),
            ("wrong order", "do not connect", "confusing or jarring"),
            ("overall message is unclear", "badly organised")],
        1: [("some structure", "logical flow breaks off in noticeable places"),
            ("jump abruptly between ideas", "gaps in its reasoning", "work harder"),
            ("main point comes through", "flow is uneven")],
        2: [("well organised", "logically from each idea to the next"),
            ("follows naturally from the one before", "clear and connected account"),
            ("follows its line of thought easily", "without going back",
             "assemble scattered pieces")],
    },
    "conciseness": {
        0: [("far too wordy", "repeats information", "irrelevant details", "excessive length"),
            ("much longer than needed", "inefficient and hard to read")],
        1: [("fairly concise", "unneeded information or repeated points"),
            ("main message is clear", "more efficient", "repetition taken out",
             "explanations tightened")],
        2: [("very concise", "all the relevant information briefly and efficiently"),
            ("Nothing in it is repeated", "each sentence has a clear purpose"),
            ("few words", "no loss of clarity or detail")],
    },
    "factual_correctness": {
        0: [("at least one significant factual error",),
            ("Important facts, figures or data", "wrong, misleading or invented",
             "out of line with the ground truth or with the knowledge base"),
            ("misunderstanding", "wrong conclusions")],
        1: [("partly accurate", "minor factual inaccuracies or omissions"),
            ("Most of its facts are right", "important details", "stated wrongly or left out"),
            ("conveys the general truth", "imprecise or incomplete where key facts")],
        2: [("factually accurate", "each critical fact, figure and detail",
             "knowledge base and the ground-truth answer alike"),
            ("no factual errors", "precisely and correctly", "relied on")],
    },
    "semantic_similarity": {
        0: [("differs from the ground truth", "important facts, figures or critical phrases"),
            ("essentially means", "wholly different"),
            ("misunderstanding of the core message", "wrong conclusions")],
        1: [("partly like the ground truth", "some of its important facts, figures and"),
            ("leaves some information out, or adds some",),
            ("fails to capture the whole core meaning",)],
        2: [("means the same as the ground truth", "facts, figures and phrases in agreement"),
            ("differences", "small", "core meaning and the factual accuracy essentially unchanged"),
            ("essential message is the ground truth's",)],
    },
}  # fmt: skip


@pytest.mark.parametrize("name", HEALTH_PARIKSHA)
def test_each_level_carries_appendix_c_criteria_and_nothing_else(name: str) -> None:
    """Every criterion of every level, in the paper's order; none of Parakh's additions."""
    rubric = load_rubric(name)
    for level, criteria in APPENDIX_C[name].items():
        written = rubric.scoring[level]
        assert isinstance(written, list) and len(written) == len(criteria), (name, level)
        for text, phrases in zip(written, criteria, strict=True):
            for phrase in phrases:
                assert phrase in " ".join(text.split()), (name, level, phrase)
    scoring = " ".join(" ".join(c) for c in rubric.scoring.values() if isinstance(c, list))
    assert not {"Bad", "Medium", "Good", "chunk", "dose", "duration", "medicine"} & set(
        scoring.replace(",", " ").replace(".", " ").split()
    )


def test_conciseness_marks_omission_down_only_where_the_paper_does() -> None:
    """Appendix C's levels 0 and 1 judge wordiness; completeness is in the description and 2."""
    rubric = load_rubric("conciseness")
    for level in (0, 1):
        text = " ".join(rubric.scoring[level]).lower()
        assert not any(w in text for w in ("omit", "left out", "leaves out", "missing", "drop"))
    assert "completeness" in rubric.description and "all the relevant" in rubric.scoring[2][0]


@pytest.mark.parametrize("name", ["factual_correctness", "coherence", "conciseness"])
def test_parakhs_own_variants_stay_available_under_their_own_names(name: str) -> None:
    variant = load_rubric(f"{name}_parakh")
    assert variant.metrics == [f"{name}_parakh"] and variant.title != load_rubric(name).title
    assert variant.scale == load_rubric(name).scale


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


def test_the_fidelity_table_gives_each_rubric_text_as_the_file_has_it() -> None:
    """docs/fidelity.md's criterion table: one row per description and per level criterion of
    the four HEALTH-PARIKSHA rubrics, each with the rubric's own wording."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "fidelity.md").read_text("utf-8")
    level_row = re.compile(
        r"\| ([^|]+) \| `conf/rubric/(\w+)\.yaml` `scoring` (\d) \(([abc])\) \|$"
    )
    description_row = re.compile(r"\| ([^|]+) \| `conf/rubric/(\w+)\.yaml` `description` \|$")
    levels = [m.groups()[1:] + m.groups()[:1] for m in map(level_row.search, doc.splitlines()) if m]
    descriptions = [m.groups()[::-1] for m in map(description_row.search, doc.splitlines()) if m]
    for name, level, letter, text in levels:
        criteria = load_rubric(name).scoring[int(level)]
        assert text == " ".join(criteria["abc".index(letter)].split()), (name, level, letter)
    for name, text in descriptions:
        assert text == " ".join(load_rubric(name).description.split()), name
    expected = {(n, str(lv), "abc"[i]) for n in HEALTH_PARIKSHA for lv, c in
                load_rubric(n).scoring.items() for i in range(len(c))}  # fmt: skip
    assert sorted((n, lv, x) for n, lv, x, _ in levels) == sorted(expected)
    assert sorted(n for n, _ in descriptions) == sorted(HEALTH_PARIKSHA)
