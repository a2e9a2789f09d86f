"""Schema of conf/dataset/*.yaml: which adapter reads the data, and how curate cleans it."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from parakh.config.base import Strict
from parakh.errors import ConfigError
from parakh.text.languages import check_language

PIIField = Literal["text", "reference_answers", "meta"]
PII_FIELDS: tuple[PIIField, ...] = ("text", "reference_answers", "meta")


def _language_value(code: str) -> str:
    try:
        return check_language(code)
    except ConfigError as e:
        raise ValueError(str(e)) from e


Language = Annotated[str, AfterValidator(_language_value)]


class PIIConfig(Strict):
    """PII redaction of questions and logs before anything is written to data/processed/."""

    enabled: bool = True
    keep: list[str] = Field(
        default_factory=list,
        description="contacts kept verbatim: phones, e-mails, '@domain', URL prefixes",
    )
    fields: list[PIIField] = Field(
        default_factory=lambda: list(PII_FIELDS),
        description="question fields redacted (meta: every string inside it)",
    )


class CategoryConfig(Strict):
    """Query-category tagging; `rules` adds tags with source "rule" to the dataset's own."""

    tagger: Literal["rules", "none"] = "rules"
    condition_terms: list[str] = Field(
        default_factory=list, description="added to the built-in condition terms"
    )
    cultural_terms: list[str] = Field(
        default_factory=list, description="added to the built-in culturally specific terms"
    )
    known_words: list[str] = Field(
        default_factory=list, description="domain words never counted as misspelled"
    )


class LengthLimits(Strict):
    """The longest text, in characters, curate accepts in each field of a row: far above every
    real dataset (longest seen: question 307, reference answer 12,501, KB document 17,375), they
    stop a pathological row (a 5 MB question) before redaction or embedding spend minutes on it.
    """

    id: int = Field(default=1_000, ge=1, description="every id (question, document, passage)")
    question: int = Field(default=20_000, ge=1, description="question text")
    reference_answer: int = Field(default=100_000, ge=1, description="each reference answer")
    context: int = Field(default=100_000, ge=1, description="each context passage's text")
    kb_document: int = Field(default=2_000_000, ge=1, description="a KB document's text")
    judged_answer: int = Field(default=100_000, ge=1, description="a human-judged answer")
    other: int = Field(default=100_000, ge=1, description="titles, domain, meta values")


class SourceFile(Strict):
    """One file of a dataset that upstream spreads over several repositories."""

    repo: str = Field(description="git repository URL")
    path: str = Field(description="the file inside `repo`")
    rev: str = Field(description="commit (or tag) of `repo` imported")


class DataSource(Strict):
    """What `parakh import-data <dataset>` imports by default, and how to cite and license it."""

    repo: str | None = Field(default=None, description="git repository URL; None: `url` is it")
    path: str | None = Field(default=None, description="file or folder inside `repo` imported")
    rev: str | None = Field(default=None, description="commit (or tag) of `repo` imported")
    files: list[SourceFile] = Field(
        default_factory=list, description="files each imported to data/raw/<dataset>/<file name>"
    )
    url: str = Field(description="page of the source (or, without `repo`, the file URL)")
    licence: str
    citation: str = ""
    upstream_layout: bool = Field(
        default=True, description="false: the adapter reads a derived layout (see `note`)"
    )
    note: str = Field(default="", description="how the files the adapter reads are derived")

    @model_validator(mode="after")
    def _pinned(self) -> DataSource:
        if self.files and (self.repo or self.path or self.rev):
            raise ValueError("give either `files` or `repo`/`path`/`rev`, not both")
        if self.files and not self.upstream_layout:
            raise ValueError("`files` are imported as upstream has them: upstream_layout: true")
        names = [PurePosixPath(f.path).name for f in self.files]
        if len(set(names)) != len(names):
            raise ValueError(f"`files` must have distinct file names, got {names}")
        if self.repo is not None and self.rev is None:
            raise ValueError("a git `repo` source needs `rev`, the commit imported")
        if self.upstream_layout and self.repo is not None and self.path is None:
            raise ValueError("an importable git `repo` source needs `path`, the file or folder")
        return self


class DatasetConfig(Strict):
    name: str
    adapter: str
    path: str = Field(description="the data the adapter reads, data/raw/<dataset config name>")
    prompt: str = Field(description="name of a file in conf/prompt/")
    source: DataSource | None = Field(
        default=None, description="public upstream source; None: the data is ours, in git"
    )
    limit: int | None = Field(default=None, ge=1, description="keep only the first N questions")
    per_language: int | None = Field(
        default=None, ge=1, description="keep N questions of every language, chosen by `seed`"
    )
    languages: list[Language] | None = None
    language: Language | None = Field(
        default=None, description="of every question whose source gives none; None: detected"
    )
    domain: str | None = None
    fewshot_pool: str | None = Field(
        default=None, description="questions JSONL, never evaluated: the k-shot examples"
    )
    description: str = ""
    options: dict[str, Any] = Field(
        default_factory=dict, description="adapter options, validated by the adapter"
    )
    strict: bool = Field(default=True, description="fail on the first bad row; false: quarantine")
    quarantine: str | None = Field(default=None, description="None: curate/quarantine.jsonl")
    dedupe: Literal["exact", "normalized", "none"] = Field(
        default="none", description="drop repeated questions (same language and contexts)"
    )
    relevance_filter: str | None = Field(
        default=None, description="'module:function': a Question -> None (keep) or a reason"
    )
    max_chars: LengthLimits = Field(default_factory=LengthLimits)
    over_length: Literal["error", "truncate"] = Field(
        default="error", description="a text over `max_chars`: a bad row, or cut (not an id)"
    )
    pii: PIIConfig = Field(default_factory=PIIConfig)
    categories: CategoryConfig = Field(default_factory=CategoryConfig)
