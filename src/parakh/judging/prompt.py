"""Render the evaluator prompt for one (question, response, rubric).

The response reaches the judge only inside a delimited block, escaped so that it can neither
close the block nor carry anything the parser would read as a verdict: angle brackets, curly
braces and backticks become look-alike characters. A judge that copies the response into its
answer therefore copies no JSON object and no code fence; the only verdict the parser can find
is the one the judge wrote itself. The shared part of the prompt (KB, query, response) comes
first so that a local judge reuses its KV cache across the metrics of one sample.

`metric_json` gives the rubric as HEALTH-PARIKSHA's evaluator received each metric (its
Appendix C): a JSON object with Name, Description and Scoring, each level's criteria keyed
(a), (b), (c) in order.
"""

from __future__ import annotations

import json
from string import ascii_lowercase

from parakh.config.base import Strict
from parakh.config.loading import load_named
from parakh.metrics.rubric import Rubric

# Look-alikes that NFKC does not fold back (fullwidth braces would be): ‹ › ❴ ❵ ˋ
_BLOCK_ESCAPES = str.maketrans("<>{}`", "\u2039\u203a\u2774\u2775\u02cb")


class JudgePrompt(Strict):
    """An evaluator prompt (conf/prompt/judge_*.yaml).

    `system` and `user` are format strings over: knowledge_base, question, response,
    reference_block, metric_json, criteria, output_format, scale_min, scale_max.
    `reference_block` is a format string over `reference`, used only for rubrics that read the
    reference answer.
    """

    name: str
    system: str
    user: str
    reference_block: str


def load_judge_prompt(name: str) -> JudgePrompt:
    prompt: JudgePrompt = load_named("prompt", name, JudgePrompt)
    return prompt


def escape_block(text: str) -> str:
    """Neutralise what could close a prompt block or pass for a verdict (tags, JSON, fences)."""
    return text.translate(_BLOCK_ESCAPES)


def metric_json(rubric: Rubric) -> str:
    """The rubric as one JSON object: Name, Description, and Scoring with each level's criteria
    keyed "(a)", "(b)", ... (a level written as one text stays one string)."""
    scoring: dict[str, str | dict[str, str]] = {}
    for score, level in sorted(rubric.scoring.items()):
        if isinstance(level, str):
            scoring[str(score)] = level
        else:
            scoring[str(score)] = {f"({ascii_lowercase[i]})": c for i, c in enumerate(level)}
    metric = {"Name": rubric.title, "Description": rubric.description, "Scoring": scoring}
    return json.dumps(metric, ensure_ascii=False)


def render_judge_messages(
    prompt: JudgePrompt,
    rubric: Rubric,
    *,
    question: str,
    response: str,
    reference: str | None,
    knowledge_base: str,
) -> tuple[tuple[str, str], ...]:
    reference_block = ""
    if rubric.uses_reference and reference:
        reference_block = prompt.reference_block.format(reference=escape_block(reference))
    values = {
        "knowledge_base": escape_block(knowledge_base),
        "question": escape_block(question),
        "response": escape_block(response),
        "reference_block": reference_block,
        "metric_json": metric_json(rubric),
        "criteria": rubric.criteria_text(),
        "output_format": rubric.output_format(),
        "scale_min": str(rubric.scale.min),
        "scale_max": str(rubric.scale.max),
    }
    return (("system", prompt.system.format_map(values)), ("user", prompt.user.format_map(values)))
