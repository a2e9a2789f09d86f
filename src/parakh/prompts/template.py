"""Answer prompts as data: one template class for every task, filled per question.

A prompt file (conf/prompt/<name>.yaml) holds format strings over a fixed set of fields, and
says where its context comes from: the retrieval stage (`retrieval`: the HealthBot RAG prompt's
raw and KB-update chunks), the question itself (`question`: XQuAD's paragraph, NoMIRACL's ten
passages), or nowhere (`none`: closed-book IndicQuest). Variants of a prompt (NoMIRACL's role,
repeat and explanation variants) are separate files, so a sweep ranges over them by name.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from pydantic import Field, field_validator, model_validator

from parakh.config.base import Strict
from parakh.config.loading import load_named
from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError
from parakh.schema import Question, Retrieval
from parakh.text.languages import check_language, language_name

FIELDS = frozenset(
    {
        "question",
        "query_language",
        "response_language",
        "refusal",
        "raw_chunks",
        "kb_update_chunks",
        "passages",
        "answerable_verdict",
        "unanswerable_verdict",
    }
)


class PromptTemplate(Strict):
    """An answer prompt. `system` and `user` are format strings over `FIELDS`."""

    name: str
    description: str = ""
    context: Literal["retrieval", "question", "none"] = Field(
        default="retrieval",
        description="retrieval: chunks from the index stage; question: the question's own "
        "passages; none: closed-book",
    )
    system: str = ""
    user: str
    chunk: str = "[{n}] {text}"
    update_chunk: str = "[{n}] {text}"
    passage: str = "[{n}] {text}"
    no_chunks: str = "(none)"
    example_answer: str = Field(
        default="{reference}",
        description="a few-shot example's answer turn; fields: reference, verdict",
    )
    refusal: str = ""
    refusal_translations: dict[str, list[str]] = Field(
        default_factory=dict,
        description="`refusal` as written in other languages, by language code; never sent to "
        "the model, only read to tell an abstention (parakh.judging.abstention)",
    )
    answerable_verdict: str = ""
    unanswerable_verdict: str = ""

    @field_validator("refusal_translations")
    @classmethod
    def _language_codes(cls, given: dict[str, list[str]]) -> dict[str, list[str]]:
        return {check_language(code): wordings for code, wordings in given.items()}

    @model_validator(mode="after")
    def _known_fields(self) -> PromptTemplate:
        for part in ("system", "user"):
            used = {f for _, f, _, _ in string.Formatter().parse(getattr(self, part)) if f}
            unknown = sorted(used - FIELDS)
            if unknown:
                raise ValueError(
                    f"{part} uses unknown field(s) {unknown}; known: {', '.join(sorted(FIELDS))}"
                )
        return self


def answer_prompt(cfg: ParakhConfig) -> str:
    """The name of the prompt a run's answers are asked with: `generation.prompt`, else the
    dataset's."""
    return cfg.generation.prompt or cfg.dataset.prompt


def load_prompt(name: str) -> PromptTemplate:
    prompt: PromptTemplate = load_named("prompt", name, PromptTemplate)
    if prompt.name != name:
        raise ConfigError(f"conf/prompt/{name}.yaml: `name` is '{prompt.name}', expected '{name}'")
    return prompt


@dataclass(frozen=True)
class ContextPassage:
    """One piece of context in the prompt: a raw chunk, a KB-update chunk or a given passage."""

    slot: Literal["raw", "update", "passage"]
    text: str
    added_at: date | None = None


def context_of(
    prompt: PromptTemplate, question: Question, retrieval: Retrieval | None
) -> list[ContextPassage]:
    """The context in drop order's reverse: what is dropped first to fit a window comes last.

    Retrieval context lists KB-update chunks (newest first) before raw chunks, so raw chunks go
    first, lowest-ranked first, then the oldest updates.
    """
    if prompt.context == "none":
        return []
    if prompt.context == "question":
        return [ContextPassage("passage", p.text.strip()) for p in question.contexts]
    if retrieval is None:
        return []
    updates = [
        ContextPassage("update", c.text.strip(), c.added_at) for c in retrieval.kb_update_chunks
    ]
    raws = [ContextPassage("raw", c.text.strip(), c.added_at) for c in retrieval.raw_chunks]
    return [*updates, *raws]


def _numbered(template: str, passages: list[ContextPassage], empty: str) -> str:
    numbered = enumerate(passages, start=1)
    lines = [template.format(n=n, text=p.text, added_at=p.added_at) for n, p in numbered]
    return "\n".join(lines) or empty


def field_values(
    prompt: PromptTemplate, question: Question, passages: list[ContextPassage]
) -> dict[str, str]:
    """`passages` lists every passage (retrieval context: updates, then raw chunks)."""
    raws, updates = ([p for p in passages if p.slot == slot] for slot in ("raw", "update"))
    return {
        "question": question.text,
        "query_language": language_name(question.language),
        "response_language": language_name(question.answer_language),
        "refusal": prompt.refusal,
        "raw_chunks": _numbered(prompt.chunk, raws, prompt.no_chunks),
        "kb_update_chunks": _numbered(prompt.update_chunk, updates, prompt.no_chunks),
        "passages": _numbered(prompt.passage, passages, prompt.no_chunks),
        "answerable_verdict": prompt.answerable_verdict,
        "unanswerable_verdict": prompt.unanswerable_verdict,
    }


def example_answer(prompt: PromptTemplate, example: Question) -> str:
    """A few-shot example's answer turn: its reference answer, or its relevance verdict."""
    verdict = prompt.answerable_verdict if example.answerable else prompt.unanswerable_verdict
    reference = example.reference_answers[0] if example.reference_answers else ""
    if not example.answerable and prompt.refusal and not reference:
        reference = prompt.refusal
    return prompt.example_answer.format(reference=reference.strip(), verdict=verdict)


def render_turns(
    prompt: PromptTemplate,
    question: Question,
    passages: list[ContextPassage],
    examples: Sequence[Question] = (),
) -> tuple[tuple[str, str], ...]:
    """(role, content) turns: system, then each example as a user/assistant pair, then the
    question. Examples carry their own passages (question context) or none."""
    values = field_values(prompt, question, passages)
    turns: list[tuple[str, str]] = []
    system = prompt.system.format_map(values)
    if system:
        turns.append(("system", system))
    for example in examples:
        example_values = field_values(prompt, example, context_of(prompt, example, None))
        turns.append(("user", prompt.user.format_map(example_values)))
        turns.append(("assistant", example_answer(prompt, example)))
    turns.append(("user", prompt.user.format_map(values)))
    return tuple(turns)
