"""The canonical row types that every stage reads and writes.

Each row is validated on write and on read; unknown fields are rejected so that a typo in a
dataset adapter fails loudly instead of silently dropping data.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_serializer,
    field_validator,
    model_validator,
)

LabelSource = Literal["dataset", "detected", "rule", "config"]
ChunkKind = Literal["raw", "update"]

# Question.meta key of a question whose prompt (query text and passages) its source lacks,
# though stored answers to it exist (NoMIRACL rows whose upstream prompt is null): replay
# scores those answers, a new model is not asked.
PROMPT_UNAVAILABLE = "prompt_unavailable"
# How a replayed answer that is blank in its file begins its error (a summary tells these
# stored-but-blank answers from answers the file does not hold).
BLANK_ANSWER = "blank answer at"


# Judge scores are written at a fixed precision: a score computed through float arithmetic
# that differs in its last bits between machines (a float32 embedding cosine through another
# SIMD kernel differs by ~1e-7) must not change the judge output, which DVC hashes. As for
# retrieval scores (parakh.retrieval.kb_versions), 4 decimals make a flip at a rounding edge
# rare; the mean of rounded scores moves by at most 5e-5, below any figure a report prints.
SCORE_DECIMALS = 4


def sample_field() -> Any:
    """The sample index of a repeated answer (`generation.samples`), left out of a written row
    when 0, so a run of one sample writes the rows it always wrote."""
    return Field(default=0, ge=0, exclude_if=lambda v: v == 0, description="the sample index")


class Row(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


class Passage(Row):
    """A context passage given with a question (XQuAD paragraph, NoMIRACL passage)."""

    id: str
    text: str
    relevant: bool | None = None
    title: str | None = None


class QueryTranslation(Row):
    """Translate-test: a question as a translator put it into the pivot language (English)."""

    translator: str
    source_language: str
    pivot_language: str = "en"
    status: Literal["ok", "unchanged", "error"]
    text: str | None = Field(default=None, description="the query in the pivot language")
    contexts: list[Passage] | None = Field(
        default=None, description="the question's passages in the pivot language; None: as given"
    )
    error: str | None = None


class ResponseTranslation(Row):
    """Translate-test: what the model was asked and answered in the pivot language, and the
    back-translation's outcome (the back-translated answer is `Generation.response`)."""

    translator: str
    pivot_language: str = "en"
    target_language: str
    status: Literal["ok", "unchanged", "error"]
    query: str | None = Field(default=None, description="the query as the model got it")
    pivot_response: str | None = Field(default=None, description="the model's own answer")
    error: str | None = None


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
    translation: QueryTranslation | None = Field(
        default=None, description="translate-test: the question in the pivot language; None: direct"
    )

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


class HumanJudgment(Row):
    """One human grade of an answer to a question (judge-vs-human agreement data).

    Repeated ratings of the same (question, answer) pair are separate rows with their own id;
    they are never de-duplicated away.
    """

    id: str = Field(min_length=1)
    question_id: str = Field(min_length=1)
    answer_id: str = Field(min_length=1)
    answer: str = Field(min_length=1)
    grade: float
    scale_min: float
    scale_max: float
    label: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _grade_on_scale(self) -> HumanJudgment:
        if not self.scale_min <= self.grade <= self.scale_max:
            raise ValueError(f"grade {self.grade} is outside {self.scale_min}..{self.scale_max}")
        return self


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


class Truncation(Row):
    """How a prompt was cut to fit the model's window (recorded only when it was cut)."""

    budget_tokens: int
    prompt_tokens: int
    passages_given: int
    passages_kept: int
    chars_trimmed: int = 0
    examples_given: int = 0
    examples_kept: int = 0
    overflow: bool = Field(
        default=False, description="still too long with no context and no examples: sent as is"
    )


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
    translation: ResponseTranslation | None = Field(
        default=None,
        description="translate-test: the pivot-language answer and back-translation; None: direct",
    )
    prompt: str | None = Field(default=None, description="the text sent to a base model")
    truncation: Truncation | None = None
    finish_reason: str | None = Field(
        default=None,
        description="why the model stopped, as its backend said: stop, length (cut by "
        "max_tokens), ...; None: not known (an error or a stored answer)",
    )
    sample: int = sample_field()


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
    label: str | None = Field(
        default=None,
        description="a categorical verdict behind the score (NoMIRACL: "
        "answer_present / i_dont_know / invalid)",
    )
    flags: list[str] = Field(
        default_factory=list,
        description="injection (the response addresses the judge), self_judged (a judge model "
        "scored its own output), repaired (valid only after a repair request)",
    )
    injection_cues: list[str] = Field(default_factory=list)
    votes: dict[str, float | None] = Field(
        default_factory=dict, description="a jury's votes by judge model; None: no valid vote"
    )
    translator: str | None = Field(
        default=None,
        description="translate-test: the translator the question went through; None: direct",
    )
    sample: int = sample_field()

    @field_serializer("score")
    def _fixed_precision_score(self, score: float | None) -> float | None:
        return None if score is None else round(score, SCORE_DECIMALS)

    @field_serializer("votes")
    def _fixed_precision_votes(self, votes: dict[str, float | None]) -> dict[str, float | None]:
        return {k: None if v is None else round(v, SCORE_DECIMALS) for k, v in votes.items()}


class HumanGrade(Row):
    """One human grade of one model's answer on one metric, for judge-human agreement.

    `score` is on the rater's own scale; when that differs from the judge's, a declared
    `ScaleMapping` maps one onto the other (never guessed). Two ratings of one answer are two
    rows (same or different `rater`), never de-duplicated.
    """

    question_id: str = Field(min_length=1)
    model: str = Field(min_length=1)
    metric: str = Field(min_length=1)
    score: float
    scale_min: float | None = None
    scale_max: float | None = None
    rater: str | None = None
    language: str | None = None


class BlindGrade(Row):
    """One grade from a grading sheet (`parakh grading-sheet`): the answer named by an opaque
    id, never by its model. Aggregate reads it beside `HumanGrade` rows and joins `answer_id`
    to (question, model) through the sheet's key file (`parakh.report.grades_file`)."""

    sheet: str = Field(min_length=1)
    rater: str = Field(min_length=1)
    question_id: str = Field(min_length=1)
    answer_id: str = Field(min_length=1)
    metric: str = Field(min_length=1)
    score: float
    scale_min: float
    scale_max: float
    language: str | None = None
    graded_at: str | None = Field(default=None, description="ISO 8601 time of the grade")
