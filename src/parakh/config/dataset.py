"""Schema of conf/dataset/*.yaml: which adapter reads the data, and how curate cleans it."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

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


class PIIConfig(Strict):
    """PII redaction of questions and logs before anything is written to data/processed/."""

    enabled: bool = True
    keep: list[str] = Field(
        default_factory=list,
        description="institutional contacts kept verbatim: phone numbers, e-mail addresses, "
        "'@domain' for every address of a domain, URL prefixes",
    )
    fields: list[PIIField] = Field(
        default_factory=lambda: list(PII_FIELDS),
        description="question fields redacted (meta: every string inside it)",
    )


class CategoryConfig(Strict):
    """Query-category tagging (misspelled, code-mixed, non-native, culturally-specific,
    condition-specific). `rules` adds tags with source "rule" to the dataset's own."""

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
    """The longest text, in characters, curate accepts in each field of a row.

    The defaults are far above every real dataset (longest seen: question 307, reference answer
    12,501, context passage 3,326, KB document 17,375, judged answer 11,488, other values 834)
    and stop a pathological row (a 5 MB question) at load time, before redaction, language
    detection or embedding spend minutes on it. KB documents may be long: index chunks them.
    """

    id: int = Field(default=1_000, ge=1, description="every id (question, document, passage)")
    question: int = Field(default=20_000, ge=1, description="question text")
    reference_answer: int = Field(default=100_000, ge=1, description="each reference answer")
    context: int = Field(default=100_000, ge=1, description="each context passage's text")
    kb_document: int = Field(default=2_000_000, ge=1, description="a KB document's text")
    judged_answer: int = Field(default=100_000, ge=1, description="a human-judged answer")
    other: int = Field(
        default=100_000, ge=1, description="any other text: titles, domain, meta values"
    )


class SourceFile(Strict):
    """One file of a dataset that upstream spreads over several repositories."""

    repo: str = Field(description="git repository URL")
    path: str = Field(description="the file inside `repo`")
    rev: str = Field(description="commit (or tag) of `repo` imported")


class DataSource(Strict):
    """Where a dataset comes from upstream: what `parakh import-data <dataset>` imports by
    default, with the facts a user needs to cite and license it."""

    repo: str | None = Field(
        default=None, description="git repository URL; None: `url` is the file or folder itself"
    )
    path: str | None = Field(
        default=None,
        description="file or folder inside `repo` that is imported; None: none "
        "is importable as is (`upstream_layout: false`)",
    )
    rev: str | None = Field(default=None, description="commit (or tag) of `repo` imported")
    files: list[SourceFile] = Field(
        default_factory=list,
        description="several files, from one or more repositories, each imported to "
        "data/raw/<dataset>/<file name> (replaces repo, path and rev)",
    )
    url: str = Field(description="page of the source (or, without `repo`, the file URL)")
    licence: str
    citation: str = ""
    upstream_layout: bool = Field(
        default=True,
        description="the adapter reads `path` as upstream has it; false: the adapter reads a "
        "derived layout (see `note`), brought with `import-data --source`",
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
        default=None,
        ge=1,
        description="keep N questions of every language, chosen by the top-level `seed` "
        "(sha256 of '<seed>:<id>'), after language labelling and dedupe",
    )
    languages: list[str] | None = None
    language: str | None = Field(
        default=None,
        description="language of every question whose source gives none (label source "
        "'config'); None: detected",
    )
    domain: str | None = None
    fewshot_pool: str | None = Field(
        default=None,
        description="questions JSONL (Question rows) that are never evaluated: this dataset's "
        "k-shot examples, relative to the project root; generation.fewshot.path wins",
    )
    description: str = ""
    options: dict[str, Any] = Field(
        default_factory=dict, description="adapter options, validated by the adapter"
    )
    strict: bool = Field(
        default=True,
        description="fail on the first bad row (file, line, field); false: quarantine bad rows",
    )
    quarantine: str | None = Field(
        default=None,
        description="where lenient mode writes bad rows; None: <processed>/<dataset>/curate/"
        "quarantine.jsonl",
    )
    dedupe: Literal["exact", "normalized", "none"] = Field(
        default="none",
        description="drop repeated questions of a chatbot log (same language and contexts): "
        "same text, or same text after case, space, punctuation and Unicode normalisation; "
        "none (benchmarks): every item is kept",
    )
    relevance_filter: str | None = Field(
        default=None,
        description="'module:function' taking a Question and returning None to keep it or the "
        "reason to drop it",
    )
    max_chars: LengthLimits = Field(default_factory=LengthLimits)
    over_length: Literal["error", "truncate"] = Field(
        default="error",
        description="a text over its `max_chars` limit: error (strict: fail naming file, line "
        "and field; lenient: quarantine the row), or truncate (cut to the limit, recorded in "
        "the question's meta.truncated and the report); an id over its limit is always an error",
    )
    pii: PIIConfig = Field(default_factory=PIIConfig)
    categories: CategoryConfig = Field(default_factory=CategoryConfig)

    @field_validator("languages", "language")
    @classmethod
    def _known_languages(cls, value: list[str] | str | None) -> list[str] | str | None:
        if isinstance(value, list):
            return [_language_value(code) for code in value]
        return None if value is None else _language_value(value)
