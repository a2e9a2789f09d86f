"""Human grades files as aggregate reads them (`aggregate.agreement.human_grades`).

The setting names one JSONL file, or a folder whose `*.jsonl` files are read in name order
(several graders' files merge by being in one folder). A row is a `HumanGrade`, naming its
model, or a `BlindGrade` from a grading sheet, naming an opaque answer id: its answer is looked
up in the sheet's key, `<sheet>.key.json` beside the grades file (written by `parakh
grading-sheet`, kept by the team), and the row becomes the `HumanGrade` of that question and
model on the sheet's scale. A row the key cannot place is an error naming file, line and field.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, ValidationError

from parakh.config.base import Strict
from parakh.errors import InputError, first_field_error
from parakh.io import iter_json_objects, read_text, validate_row
from parakh.schema import BlindGrade, HumanGrade

KEY_SUFFIX = ".key.json"


class MetricScale(Strict):
    min: float
    max: float


class KeyedAnswer(Strict):
    question_id: str = Field(min_length=1)
    model: str = Field(min_length=1)  # the leaderboard entry (`<model> via <translator>`)


class AnswerKey(Strict):
    """What a grading sheet hides: each answer id's question and model."""

    sheet: str = Field(min_length=1)
    dataset: str
    judge: str
    seed: int
    graders: list[str]
    metrics: dict[str, MetricScale]
    answers: dict[str, KeyedAnswer]


def key_path(folder: Path, sheet: str) -> Path:
    return folder / f"{sheet}{KEY_SUFFIX}"


def kept_with_grades(name: str) -> bool:
    """Whether a grades folder's file is read by aggregate: a grades file or an answer key
    (the sheets themselves are not)."""
    return name.endswith(".jsonl") or name.endswith(KEY_SUFFIX)


def grades_files(path: Path) -> list[Path]:
    """The grades files of a configured path: the file, or a folder's `*.jsonl` by name."""
    if not path.exists():
        raise InputError(path, "human grades file not found")
    if not path.is_dir():
        return [path]
    files = sorted(p for p in path.glob("*.jsonl") if p.is_file())
    if not files:
        raise InputError(path, "no grades files (*.jsonl) in this folder")
    return files


def read_human_grades(path: Path) -> tuple[list[HumanGrade], list[int]]:
    """Every grade of the file or folder `path`, blind ones joined to their models, and the
    line of each in its file."""
    grades: list[HumanGrade] = []
    lines: list[int] = []
    keys: dict[Path, AnswerKey] = {}
    for file in grades_files(path):
        for line, obj in iter_json_objects(file):
            if "answer_id" in obj:
                blind = validate_row(BlindGrade, obj, file, line)
                grade = _joined(blind, file, line, keys)
            else:
                grade = validate_row(HumanGrade, obj, file, line)
            grades.append(grade)
            lines.append(line)
    return grades, lines


def _key(file: Path, line: int, sheet: str, keys: dict[Path, AnswerKey]) -> AnswerKey:
    path = key_path(file.parent, sheet)
    if path not in keys:
        if not path.is_file():
            raise InputError(
                file,
                f"no answer key {path}: put the key `parakh grading-sheet` wrote for sheet "
                f"'{sheet}' beside this grades file",
                line=line,
                field="sheet",
            )
        keys[path] = read_key(path)
    return keys[path]


def read_key(path: Path) -> AnswerKey:
    try:
        return AnswerKey.model_validate_json(read_text(path))
    except ValidationError as e:
        field, message = first_field_error(e)
        raise InputError(path, message, field=field) from e


def _joined(blind: BlindGrade, file: Path, line: int, keys: dict[Path, AnswerKey]) -> HumanGrade:
    """The `HumanGrade` of a blind grade: its answer's model, the sheet's scale."""
    key = _key(file, line, blind.sheet, keys)

    def wrong(field: str, message: str) -> InputError:
        return InputError(file, message, line=line, field=field)

    answer = key.answers.get(blind.answer_id)
    if answer is None:
        raise wrong(
            "answer_id", f"unknown answer id '{blind.answer_id}': not in sheet '{key.sheet}'"
        )
    if answer.question_id != blind.question_id:
        raise wrong(
            "question_id",
            f"answer '{blind.answer_id}' answers question '{answer.question_id}', not "
            f"'{blind.question_id}'",
        )
    scale = key.metrics.get(blind.metric)
    if scale is None:
        raise wrong(
            "metric", f"sheet '{key.sheet}' grades {', '.join(key.metrics)}, not '{blind.metric}'"
        )
    if not scale.min <= blind.score <= scale.max:
        raise wrong(
            "score", f"grade {blind.score:g} is off the sheet's {scale.min:g}..{scale.max:g} scale"
        )
    return HumanGrade(
        question_id=blind.question_id,
        model=answer.model,
        metric=blind.metric,
        score=blind.score,
        scale_min=scale.min,
        scale_max=scale.max,
        rater=blind.rater,
        language=blind.language,
    )
