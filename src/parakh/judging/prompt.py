"""Render the evaluator prompt for one (question, response, metric).

The response reaches the judge only inside a delimited block, with the delimiters escaped, and
the shared part of the prompt (KB, query, response) comes first so that a local judge reuses
its KV cache across the metrics of one sample.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from parakh.config.loading import load_named
from parakh.judging.rubric import Rubric
from parakh.schema import Retrieval


class JudgePrompt(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    system: str
    user: str
    reference_block: str


def load_judge_prompt(name: str) -> JudgePrompt:
    prompt: JudgePrompt = load_named("prompt", name, JudgePrompt)
    return prompt


def escape_block(text: str) -> str:
    """Neutralise tags that could close or open a block of the judge prompt."""
    return text.replace("<", "‹").replace(">", "›")


def knowledge_base_text(retrieval: Retrieval | None, max_chars: int) -> str:
    if retrieval is None:
        return "(none)"
    parts = [f"RawChunk: {c.text.strip()}" for c in retrieval.raw_chunks]
    parts += [
        f"KBUpdateChunk (added {c.added_at}): {c.text.strip()}" for c in retrieval.kb_update_chunks
    ]
    text = "\n".join(parts) or "(none)"
    return text if len(text) <= max_chars else text[:max_chars].rstrip() + " …"


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
        "metric_title": rubric.title,
        "metric_description": rubric.description,
        "scoring_table": rubric.scoring_table(),
    }
    return (("system", prompt.system.format_map(values)), ("user", prompt.user.format_map(values)))
