"""Replay: a model whose answers were made elsewhere and stored in a file.

The whole file is read and checked when the backend is made, before generate writes anything
(`load_answers`); a question with no stored answer, or a blank one, becomes an error row naming
the file. A stored answer needs no prompt: a question whose source lacks it
(`meta.prompt_unavailable`) is replayed like any other; only a model that would be asked
skips it (`unasked_reason`).
"""

from __future__ import annotations

import csv
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parakh.backends.base import Backend, BlockingBackend, ChatRequest, Completion
from parakh.config.model import ReplayModel
from parakh.errors import ConfigError, InputError
from parakh.hashing import sha256_path
from parakh.io import iter_json_objects, read_text
from parakh.project import resolve
from parakh.schema import BLANK_ANSWER, PROMPT_UNAVAILABLE, Question

# How the error row of a question a generating model is not asked begins.
NOT_ASKED = "not asked:"


@dataclass(frozen=True)
class StoredAnswer:
    """One model's stored answer to one question; `response` None: blank in the file."""

    response: str | None
    line: int


def csv_rows(path: Path, label: str, required: list[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(first line, row) per non-blank record, after checking the header has `required`."""
    text = read_text(path).removeprefix("\ufeff")
    reader = csv.reader(text.splitlines(keepends=True), strict=True)
    try:
        header = next(reader, None)
        if header is None:
            raise InputError(label, "empty CSV file: expected a header row", line=1)
        for column in required:
            if column not in header:
                raise InputError(
                    label,
                    f"missing column '{column}'; columns found: {', '.join(header)}",
                    line=1,
                    field=column,
                )
        start = reader.line_num + 1
        for values in reader:
            if any(v.strip() for v in values):
                if len(values) != len(header):
                    raise InputError(
                        label,
                        f"{len(values)} fields where the header has {len(header)}",
                        line=start,
                    )
                yield start, dict(zip(header, values, strict=True))
            start = reader.line_num + 1
    except csv.Error as e:
        raise InputError(label, f"not valid CSV ({e})", line=reader.line_num) from e


_ABSENT = object()


def field_at(row: dict[str, Any], path: str, default: Any = None) -> Any:
    """`row[path]`, or for a dotted path such as `meta.model_outputs` the field inside the
    object before each dot (a row of curate's questions.jsonl keeps stored outputs there);
    `default` when there is no such field."""
    value: Any = row
    for part in [path] if path in row else path.split("."):
        if not isinstance(value, dict) or part not in value:
            return default
        value = value[part]
    return value


def _field(row: dict[str, Any], path: str, label: str, line: int) -> Any:
    value = field_at(row, path, _ABSENT)
    if value is _ABSENT:
        found = ", ".join(row) or "none"
        raise InputError(
            label, f"missing field '{path}'; fields found: {found}", line=line, field=path
        )
    return value


def _question_id(cfg: ReplayModel, row: dict[str, Any], label: str, line: int) -> str:
    if cfg.question_id_template is not None:
        try:
            qid = cfg.question_id_template.format_map(row)
        except KeyError as e:
            _field(row, str(e.args[0]), label, line)
            raise
        where = cfg.question_id_template
    else:
        where = cfg.question_id_field
        value = _field(row, where, label, line)
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise InputError(
                label, f"expected a question id, got {value!r}", line=line, field=where
            )
        qid = str(value).strip()
    if not qid:
        raise InputError(label, "blank question id", line=line, field=where)
    return qid


def _response_name(cfg: ReplayModel) -> str:
    """The field a response is read from, as errors name it."""
    if cfg.responses_field is not None:
        return f"{cfg.responses_field}.{cfg.model_value}"
    return cfg.response_field


def _row_answer(
    cfg: ReplayModel, row: dict[str, Any], label: str, line: int, seen_values: set[str]
) -> tuple[str, str | None, bool] | None:
    """(question id, stored text or None when blank, answered) of a row, adding the model
    values it names to `seen_values`; None for a row of another model."""
    if cfg.responses_field is not None:
        outputs = _field(row, cfg.responses_field, label, line)
        if not isinstance(outputs, dict):
            raise InputError(
                label,
                f"expected an object of {{model: response}}, got {type(outputs).__name__}",
                line=line,
                field=cfg.responses_field,
            )
        seen_values.update(map(str, outputs))
        qid = _question_id(cfg, row, label, line)
        value, answered = outputs.get(cfg.model_value), cfg.model_value in outputs
    else:
        if cfg.model_value is not None or field_at(row, cfg.model_field, _ABSENT) is not _ABSENT:
            model = str(_field(row, cfg.model_field, label, line))
            seen_values.add(model)
            if cfg.model_value is not None and model != cfg.model_value:
                return None
        qid = _question_id(cfg, row, label, line)
        value, answered = _field(row, cfg.response_field, label, line), True
    if value is not None and not isinstance(value, str):  # text or null; anything else: bad file
        what = f"expected text, got {type(value).__name__}"
        raise InputError(label, what, line=line, field=_response_name(cfg))
    return qid, value if value and value.strip() else None, answered


def load_answers(cfg: ReplayModel, path: Path) -> dict[str, StoredAnswer]:
    """The answers of one replay model by question id, read and checked: an InputError naming
    file, line and field for a bad row, a question answered twice, a `model_value` the file
    never names (or several models where none is chosen)."""
    label = cfg.answers
    if cfg.format == "csv" or (cfg.format == "auto" and label.lower().endswith(".csv")):
        if cfg.responses_field is not None:
            raise ConfigError(f"model '{cfg.name}': `responses_field` needs a JSONL file")
        required = [cfg.response_field]
        if cfg.question_id_template is None:
            required.insert(0, cfg.question_id_field)
        if cfg.model_value is not None:
            required.append(cfg.model_field)
        rows = csv_rows(path, label, required)
    else:
        rows = iter_json_objects(path, label)
    seen_values: set[str] = set()
    taken = [
        (line, answer)
        for line, row in rows
        if (answer := _row_answer(cfg, row, label, line, seen_values)) is not None
    ]
    if cfg.model_value is not None and cfg.model_value not in seen_values:
        present = ", ".join(sorted(seen_values)) or "none"
        raise InputError(
            label,
            f"model_value '{cfg.model_value}' never occurs; values present: {present}",
            field=cfg.responses_field or cfg.model_field,
        )
    if cfg.model_value is None and len(seen_values) > 1:
        raise InputError(
            label,
            f"column '{cfg.model_field}' names several models ({', '.join(sorted(seen_values))}): "
            "set model_value to the one this model takes",
            field=cfg.model_field,
        )
    answers: dict[str, StoredAnswer] = {}
    for line, (qid, text, answered) in taken:
        first = answers.get(qid)
        if first is not None:
            if cfg.duplicates == "first":
                continue
            raise InputError(
                label,
                f"question '{qid}' is answered again for this model (first at line {first.line})",
                line=line,
                field=cfg.question_id_template or cfg.question_id_field,
            )
        if answered:
            answers[qid] = StoredAnswer(text, line)
    return answers


class ReplayBackend(BlockingBackend):
    """Answers each request with the stored answer to its question; never calls a model."""

    cfg: ReplayModel

    def __init__(self, cfg: ReplayModel) -> None:
        super().__init__(cfg)
        path = resolve(cfg.answers)
        if not path.is_file():
            raise InputError(cfg.answers, f"answers file not found (looked at {path})")
        self.sha256 = sha256_path(path)
        self.answers = load_answers(cfg, path)

    def identity(self) -> dict[str, Any]:
        """Every setting that can change which answer is read, and the file's content hash."""
        return {**super().identity(), "sha256": self.sha256}

    def prepare(self, question_ids: Collection[str]) -> None:
        """Refuse an answers file that names questions the run does not have (a wrong id
        scheme, a file for another dataset); call before anything is written."""
        if self.cfg.unknown_ids == "ignore":
            return
        known = set(question_ids)
        unknown = {q: a.line for q, a in self.answers.items() if q not in known}
        if unknown:
            first = min(unknown, key=unknown.__getitem__)
            raise InputError(
                self.cfg.answers,
                f"question '{first}' is not in the dataset "
                f"({len(unknown)} of {len(self.answers)} answers name unknown questions)",
                line=unknown[first],
                field=self.cfg.question_id_template or self.cfg.question_id_field,
            )

    def complete(self, request: ChatRequest) -> Completion:
        answer = self.answers.get(request.key)
        if answer is None:
            return Completion(
                text=None,
                error=f"no stored answer for question '{request.key}' in {self.cfg.answers}",
            )
        if answer.response is None:
            where = f"{self.cfg.answers}:{answer.line}, field '{_response_name(self.cfg)}'"
            return Completion(text=None, error=f"{BLANK_ANSWER} {where}")
        return Completion(text=answer.response)


def unasked_reason(question: Question, backend: Backend) -> str | None:
    """Why `backend` is not asked `question`, or None when it is: a question whose prompt the
    source lacks is answered only by replaying a stored answer."""
    unavailable = question.meta.get(PROMPT_UNAVAILABLE)
    if unavailable is None or isinstance(backend, ReplayBackend):
        return None
    detail = unavailable.get("reason") if isinstance(unavailable, dict) else unavailable
    return f"{NOT_ASKED} the question's prompt is unavailable ({detail})"
