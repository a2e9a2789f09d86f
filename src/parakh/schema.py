"""The canonical row types that every stage reads and writes.

Each row is validated on write and on read; unknown fields are rejected so that a typo in a
dataset adapter fails loudly instead of silently dropping data.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

LabelSource = Literal["dataset", "detected", "rule", "config"]
ChunkKind = Literal["raw", "update"]

REFUSAL_EN = (
    "I do not know the answer to your question. If this needs to be answered by a doctor, "
    "please schedule a consultation."
)


class Row(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


class Passage(Row):
    """A context passage given with a question (XQuAD paragraph, NoMIRACL passage)."""

    id: str
    text: str
    relevant: bool | None = None


class Question(Row):
    """One evaluation item, whatever dataset it came from."""

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    language: str = Field(min_length=2, description="ISO 639-1 code of the matrix language")
    response_language: str | None = None
    script: str | None = None
    romanized: bool = False
    code_mixed: bool = False
    matrix_language: str | None = None
    categories: list[str] = Field(default_factory=list)
    category_sources: dict[str, LabelSource] = Field(default_factory=dict)
    label_source: dict[str, LabelSource] = Field(default_factory=dict)
    reference_answers: list[str] = Field(default_factory=list)
    asked_at: date | None = None
    domain: str | None = None
    contexts: list[Passage] = Field(default_factory=list)
    answerable: bool = True
    subset: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("text")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("text is empty")
        return v

    @property
    def answer_language(self) -> str:
        return self.response_language or self.language


class KBDocument(Row):
    """A knowledge-base document: a raw hospital document or one dated KB-update entry."""

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    source: str
    kind: ChunkKind
    title: str | None = None
    added_at: date | None = None


class Chunk(Row):
    """A piece of a KB document that retrieval returns."""

    id: str
    document_id: str
    kind: ChunkKind
    text: str
    start: int
    end: int
    added_at: date | None = None
    title: str | None = None


class RetrievedChunk(Row):
    chunk_id: str
    document_id: str
    kind: ChunkKind
    text: str
    score: float
    added_at: date | None = None


class Retrieval(Row):
    """The chunks every model receives for one question, raw and KB-update kept apart."""

    question_id: str
    raw_chunks: list[RetrievedChunk]
    kb_update_chunks: list[RetrievedChunk]


class Usage(Row):
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Generation(Row):
    """One model's answer to one question, or the recorded reason there is none."""

    question_id: str
    model: str
    status: Literal["ok", "error"]
    response: str | None = None
    error: str | None = None
    messages: list[dict[str, str]] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    latency_s: float = 0.0
    cached: bool = False
    request_hash: str | None = None


class Judgment(Row):
    """One (question, model, metric) score, or the reason there is no score."""

    question_id: str
    model: str
    judge: str
    metric: str
    language: str
    categories: list[str] = Field(default_factory=list)
    status: Literal["ok", "invalid", "error", "skipped"]
    score: float | None = None
    scale_max: float = 1.0
    justification: str | None = None
    raw_output: str | None = None
    reason: str | None = None
