"""Render the RAG prompt of a dataset (conf/prompt/<name>.yaml) for one question."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from parakh.config.loading import load_named
from parakh.schema import Question, Retrieval, RetrievedChunk
from parakh.text.languages import language_name


class RagPrompt(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    system: str
    user: str
    chunk: str = "[{n}] {text}"
    update_chunk: str = "[{n}] {text}"
    no_chunks: str = "(none)"
    refusal: str = ""


def load_rag_prompt(name: str) -> RagPrompt:
    prompt: RagPrompt = load_named("prompt", name, RagPrompt)
    return prompt


def _format_chunks(chunks: list[RetrievedChunk], template: str, empty: str) -> str:
    if not chunks:
        return empty
    return "\n".join(
        template.format(n=i, text=c.text.strip(), added_at=c.added_at)
        for i, c in enumerate(chunks, start=1)
    )


def render_messages(
    prompt: RagPrompt, question: Question, retrieval: Retrieval | None
) -> tuple[tuple[str, str], ...]:
    raw = retrieval.raw_chunks if retrieval else []
    updates = retrieval.kb_update_chunks if retrieval else []
    values = {
        "refusal": prompt.refusal,
        "query_language": language_name(question.language),
        "response_language": language_name(question.answer_language),
        "raw_chunks": _format_chunks(raw, prompt.chunk, prompt.no_chunks),
        "kb_update_chunks": _format_chunks(updates, prompt.update_chunk, prompt.no_chunks),
        "question": question.text,
    }
    return (("system", prompt.system.format_map(values)), ("user", prompt.user.format_map(values)))
