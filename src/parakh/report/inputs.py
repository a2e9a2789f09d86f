"""What `aggregate` reads: questions, every model's judge rows and answers, human grades.

Human grades come from curate (`curate/human_judgments.jsonl`, grades of answer texts, read
whenever the dataset has them; the answers are then read too, to pair grades by text) and
from an optional grades file (`aggregate.agreement.human_grades`).

Loaded by path from a `Layout`, so the stage, `parakh reproduce` (from MLflow artifacts or a
DVC revision laid out in a temporary folder) and notebooks all read results the same way.
Judge rows are read into columns, validated once per file by schema
(`parakh.report.judge_rows`): the statistics read `columns()`, and `judgments` builds a model's
`Judgment` objects only when a page asks for them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import yaml

from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError, InputError
from parakh.io import iter_json_objects, read_jsonl, validate_row
from parakh.project import project_root
from parakh.report.answer_rows import Answer, read_answers
from parakh.report.answer_scores import TEXTS, AnswerScores
from parakh.report.columns import JudgeColumns
from parakh.report.curation_summary import CurationSummary
from parakh.report.human_grades import CURATED_GRADES
from parakh.report.judge_rows import (
    _TYPES,
    JudgeFile,
    JudgmentFiles,
    read_judge_file,
    rows_table,
)
from parakh.report.question_rows import QuestionView, read_questions
from parakh.report.released_table import ReleasedTable
from parakh.schema import HumanGrade, HumanJudgment, Judgment
from parakh.stage_outputs import DIRECT, Layout, variant_generation_name


@dataclass
class AggregateInputs:
    judge: str
    models: list[str]
    judgments: Mapping[str, list[Judgment]]  # by model; JudgmentFiles when read from files
    questions: Sequence[QuestionView] = field(default_factory=list)  # report.question_rows
    generations: dict[str, list[Answer]] = field(default_factory=dict)  # parakh.report.answer_rows
    human_grades: list[HumanGrade] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)
    human_grade_lines: list[int] = field(default_factory=list)  # file line of each grade
    answer_grades: list[HumanJudgment] = field(default_factory=list)  # curated, by answer
    judgment_lines: dict[str, Sequence[int]] = field(default_factory=dict)  # each row's line
    curation: CurationSummary | None = None  # what curate dropped, per reason (report header)
    released_table: ReleasedTable | None = None  # NoMIRACL: the authors' code's own table
    _columns: JudgeColumns | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def load(
        cls,
        layout: Layout,
        judge: str,
        models: list[str],
        *,
        human_grades: Path | None = None,
        with_generations: bool = True,
    ) -> AggregateInputs:
        """Read every input; a missing judge file is an error naming the stage to run.

        The questions file and answer files are optional (the report says when they are
        missing); the human grades file, when configured, must exist. Curated grades of
        answers are read when curate wrote them, and with them the answers they pair through.
        """
        paths: dict[str, Path] = {}
        files = _judge_files(layout, judge, models, paths)
        questions: list[QuestionView] = []
        if layout.curated_questions.exists():
            questions = read_questions(layout.curated_questions)
            paths["questions"] = layout.curated_questions
        answer_grades: list[HumanJudgment] = []
        curated = layout.curated_questions.with_name(CURATED_GRADES)
        if curated.exists():
            answer_grades = read_jsonl(curated, HumanJudgment)
            paths["human_judgments"] = curated
        generations: dict[str, list[Answer]] = {}
        if with_generations or answer_grades:
            for model in models:
                path = layout.generations(model)
                if path.exists():
                    generations[model] = read_answers(path)
                    paths[f"generations.{model}"] = path
        grades, lines = _human_grades(human_grades, paths)
        return cls(
            judge=judge,
            models=list(models),
            judgments=JudgmentFiles(files),
            questions=questions,
            generations=generations,
            human_grades=grades,
            paths=paths,
            human_grade_lines=lines,
            answer_grades=answer_grades,
            judgment_lines={model: f.lines for model, f in files.items()},
            curation=CurationSummary.read(layout.curation_report),
            released_table=ReleasedTable.read({m: layout.judgments(judge, m) for m in files}),
        )

    @property
    def rows(self) -> list[Judgment]:
        """Every model's rows as objects (built on each call when read from files)."""
        return [row for model in self.models for row in self.judgments.get(model, [])]

    def columns(self) -> JudgeColumns:
        """Every model's rows as the columns the statistics read, in the order of `rows`."""
        if self._columns is None:
            judgments = self.judgments
            if isinstance(judgments, JudgmentFiles):
                tables = [judgments.files[m].stats_table() for m in self.models if m in judgments]
                table = pa.concat_tables(tables) if tables else rows_table([])
            else:
                table = rows_table([r for m in self.models for r in judgments.get(m, [])])
            self._columns = JudgeColumns.of_table(table)
        return self._columns

    def answer_scores(self) -> AnswerScores:
        """The judge rows under each answer of the answers page, from the columns."""
        names = list(TEXTS)
        tables = [judge_table(self.judgments, m, names) for m in self.models if m in self.judgments]
        texts = (
            pa.concat_tables(tables)
            if tables
            else pa.table({n: pa.array([], pa.string()) for n in names})
        )
        return AnswerScores(self.columns(), texts)

    def judge_table(self, model: str, names: Sequence[str]) -> pa.Table:
        """One model's judge rows as the named columns, in reading order (`judge_table`)."""
        return judge_table(self.judgments, model, names)

    @property
    def domains(self) -> dict[str, str | None]:
        return {q.id: q.domain for q in self.questions}


def _judge_files(
    layout: Layout, judge: str, models: list[str], paths: dict[str, Path]
) -> dict[str, JudgeFile]:
    """Every model's judge file (a missing one is an error naming the stage to run)."""
    files: dict[str, JudgeFile] = {}
    for model in models:
        path = layout.judgments(judge, model)
        if not path.exists():
            raise InputError(
                path,
                f"no judge output for model '{model}': run `dvc repro` or the judge stage "
                "for it first",
            )
        files[model] = read_judge_file(path)
        paths[f"judgments.{model}"] = path
    return files


def _human_grades(path: Path | None, paths: dict[str, Path]) -> tuple[list[HumanGrade], list[int]]:
    """The grades file's rows and their line numbers (none without a file)."""
    grades: list[HumanGrade] = []
    lines: list[int] = []
    if path is not None:
        if not path.exists():
            raise InputError(path, "human grades file not found")
        for line, obj in iter_json_objects(path):
            grades.append(validate_row(HumanGrade, obj, path, line))
            lines.append(line)
        paths["human_grades"] = path
    return grades, lines


def judge_table(
    judgments: Mapping[str, list[Judgment]], model: str, names: Sequence[str]
) -> pa.Table:
    """One model's judge rows as the named columns (any field but `votes`), plain arrays in
    reading order: the file's own table when it was read by schema, else built from the rows
    (a file read row by row, rows made in memory); no rows, an empty table."""
    if isinstance(judgments, JudgmentFiles) and model in judgments:
        table = judgments.files[model].table
        if table is not None:
            return pa.table([_plain(table.column(n)) for n in names], list(names))
    rows = held_rows(judgments, model)
    return pa.table({n: pa.array([getattr(r, n) for r in rows], _TYPES[n]) for n in names})


def held_rows(judgments: Mapping[str, list[Judgment]], model: str) -> list[Judgment]:
    """One model's rows as objects where they are held as objects, else none: a file read by
    schema has no jury votes (`parakh.report.judge_rows` reads a file with votes row by row)."""
    if isinstance(judgments, JudgmentFiles):
        found = judgments.files.get(model)
        return list(found.rows) if found is not None and found.rows is not None else []
    return list(judgments.get(model, []))


def _plain(column: pa.ChunkedArray) -> pa.ChunkedArray:
    if pa.types.is_dictionary(column.type):
        return column.cast(column.type.value_type)
    return column


def models_to_aggregate(cfg: ParakhConfig) -> list[str]:
    """`models=[...]` if given, else what params.yaml (DVC's source of truth) runs: each model
    of `models` directly, then under each of its `variants` and `translate_test` entries
    (`<model>@<variant>`, the generations file stem the judge rows are under)."""
    if cfg.models is not None:
        return cfg.models
    params = project_root() / "params.yaml"
    if not params.is_file():
        raise ConfigError("no models to aggregate: pass models=[a,b] or add params.yaml")
    document = yaml.safe_load(params.read_text(encoding="utf-8")) or {}
    models = document.get("models")
    if not isinstance(models, list) or not models:
        raise InputError(params, "expected a non-empty list", field="models")
    variants = [DIRECT]
    for key in ("variants", "translate_test"):
        entries = document.get(key) or []
        for i, entry in enumerate(entries if isinstance(entries, list) else [entries]):
            if not isinstance(entry, dict) or not entry.get("name"):
                raise InputError(params, "expected a mapping with a `name`", field=f"{key}[{i}]")
            variants.append(str(entry["name"]))
    return [variant_generation_name(str(m), v) for m in models for v in variants]
