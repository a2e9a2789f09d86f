"""The HealthBot RAG prompt (conf/prompt/healthbot.yaml) and any retrieval-context prompt.

Kept as the entry point for retrieval prompts; the template machinery lives in
`parakh.prompts.template`.
"""

from __future__ import annotations

from parakh.prompts.template import PromptTemplate, context_of, load_prompt, render_turns
from parakh.schema import Question, Retrieval

RagPrompt = PromptTemplate


def load_rag_prompt(name: str) -> PromptTemplate:
    return load_prompt(name)


def render_messages(
    prompt: PromptTemplate, question: Question, retrieval: Retrieval | None
) -> tuple[tuple[str, str], ...]:
    """The full prompt for one question with every retrieved chunk (no truncation, no shots)."""
    return render_turns(prompt, question, context_of(prompt, question, retrieval))
