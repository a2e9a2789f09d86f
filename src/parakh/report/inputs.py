"""What `aggregate` reads: questions, every model's judge rows and answers, human grades.

Human grades come from curate (`curate/human_judgments.jsonl`, grades of answer texts, paired
by text, so the answers are read too) and from an optional grades file
(`aggregate.agreement.human_grades`). Loaded by path from a `Layout`, so the stage, `parakh
reproduce` and notebooks all read results the same way; the statistics read `columns()`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import yaml

from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError, InputError
from parakh.io import read_jsonl
from parakh.project import project_root
from parakh.report.agreement import CURATED_GRADES
from parakh.report.answer_scores import TEXTS, AnswerScores
from parakh.report.columns import JudgeColumns
from parakh.report.costs import RecordedUsage, read_usage
from parakh.report.curation_summary import CurationSummary
from parakh.report.grades_file import read_human_grades
from parakh.report.released_table import ReleasedTable
from parakh.report.row_files import (
    STATS_COLUMNS,
    Answer,
    JudgeFile,
    JudgmentFiles,
    QuestionView,
    read_answers,
    read_judge_file,
    read_questions,
)
from parakh.schema import HumanGrade, HumanJudgment, Judgment
from parakh.stage_outputs import DIRECT, Layout, variant_generation_name

_NO_ROWS = JudgeFile.of_rows([])


@dataclass
class AggregateInputs:
    judge: str
    models: list[str]
    judgments: Mapping[str, list[Judgment]]  # by model: JudgmentFiles (rows given: read as such)
    questions: Sequence[QuestionView] = field(default_factory=list)
    generations: dict[str, list[Answer]] = field(default_factory=dict)
    human_grades: list[HumanGrade] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)
    human_grade_lines: list[int] = field(default_factory=list)  # file line of each grade
    answer_grades: list[HumanJudgment] = field(default_factory=list)  # curated, by answer
    curation: CurationSummary | None = None  # what curate dropped, per reason (report header)
    released_table: ReleasedTable | None = None  # NoMIRACL: the authors' code's own table
    usage: dict[str, RecordedUsage] = field(default_factory=dict)  # tokens, prices: `costs`
    _columns: JudgeColumns | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:  # rows given in memory are read as the judge writes them
        if not isinstance(self.judgments, JudgmentFiles):
            rows = self.judgments
            self.judgments = JudgmentFiles({m: JudgeFile.of_rows(rows[m]) for m in rows})

    @classmethod
    def load(
        cls,
        layout: Layout,
        judge: str,
        models: list[str],
        *,
        human_grades: Path | None = None,
        with_generations: bool = True,
        ledgers: Path | None = None,
    ) -> AggregateInputs:
        """Read every input; a missing judge file is an error naming the stage to run.

        The questions file and answer files are optional (the report says when they are
        missing); the human grades file, when configured, must exist. Curated grades of
        answers are read when curate wrote them, and with them the answers they pair through.
        So is each model's token usage (`costs.read_usage`; latency from `ledgers` if given).
        """
        paths: dict[str, Path] = {}
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
                if path.exists():  # `read_usage` records its path
                    generations[model] = read_answers(path)
        usage = {m: u for m in models if (u := read_usage(layout, judge, m, ledgers, paths))}
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
            curation=CurationSummary.read(layout.curation_report),
            released_table=ReleasedTable.read({m: layout.judgments(judge, m) for m in files}),
            usage=usage,
        )

    @property
    def files(self) -> dict[str, JudgeFile]:
        assert isinstance(self.judgments, JudgmentFiles)
        return self.judgments.files

    @property
    def judgment_lines(self) -> dict[str, Sequence[int]]:
        return {model: f.lines for model, f in self.files.items()}

    @property
    def rows(self) -> list[Judgment]:
        """Every model's rows as objects (built on each call)."""
        return [row for model in self.models for row in self.judgments.get(model, [])]

    def columns(self) -> JudgeColumns:
        """Every model's rows as the columns the statistics read, in the order of `rows`."""
        if self._columns is None:
            self._columns = JudgeColumns.of_table(self._all_models(STATS_COLUMNS))
        return self._columns

    def answer_scores(self) -> AnswerScores:
        """The judge rows under each answer of the answers page, from the columns."""
        return AnswerScores(self.columns(), self._all_models(TEXTS))

    def judge_table(self, model: str, names: Sequence[str]) -> pa.Table:
        """One model's judge rows as the named columns (any field but `votes`), in reading
        order; no rows, an empty table."""
        return self.files.get(model, _NO_ROWS).columns(names)

    def _all_models(self, names: Sequence[str]) -> pa.Table:
        return pa.concat_tables([self.judge_table(m, names) for m in self.models or [""]])

    @property
    def domains(self) -> dict[str, str | None]:
        return {q.id: q.domain for q in self.questions}


def _human_grades(path: Path | None, paths: dict[str, Path]) -> tuple[list[HumanGrade], list[int]]:
    """The grades file's (or folder's) rows and their line numbers (none without a file)."""
    if path is None:
        return [], []
    grades = read_human_grades(path)
    paths["human_grades"] = path
    return grades


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
