"""What `aggregate` reads: questions, every model's judge rows and answers, human grades.

Human grades come from curate (`curate/human_judgments.jsonl`, grades of answer texts, read
whenever the dataset has them; the answers are then read too, to pair grades by text) and
from an optional grades file (`aggregate.agreement.human_grades`).

Loaded by path from a `Layout`, so the stage, `parakh reproduce` (from MLflow artifacts or a
DVC revision laid out in a temporary folder) and notebooks all read results the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from parakh.config.schema import ParakhConfig
from parakh.errors import ConfigError, InputError
from parakh.io import iter_json_objects, read_jsonl, validate_row
from parakh.layout import DIRECT, Layout, variant_generation_name
from parakh.paths import project_root
from parakh.report.human_grades import CURATED_GRADES
from parakh.schema import Generation, HumanGrade, HumanJudgment, Judgment, Question


@dataclass
class AggregateInputs:
    judge: str
    models: list[str]
    judgments: dict[str, list[Judgment]]
    questions: list[Question] = field(default_factory=list)
    generations: dict[str, list[Generation]] = field(default_factory=dict)
    human_grades: list[HumanGrade] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)
    human_grade_lines: list[int] = field(default_factory=list)  # file line of each grade
    answer_grades: list[HumanJudgment] = field(default_factory=list)  # curated, by answer
    judgment_lines: dict[str, list[int]] = field(default_factory=dict)  # file line of each row

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
        judgments: dict[str, list[Judgment]] = {}
        judgment_lines: dict[str, list[int]] = {}
        for model in models:
            path = layout.judgments(judge, model)
            if not path.exists():
                raise InputError(
                    path,
                    f"no judge output for model '{model}': run `dvc repro` or the judge stage "
                    "for it first",
                )
            located = [
                (line, validate_row(Judgment, obj, path, line))
                for line, obj in iter_json_objects(path)
            ]
            judgments[model] = [row for _, row in located]
            judgment_lines[model] = [line for line, _ in located]
            paths[f"judgments.{model}"] = path
        questions: list[Question] = []
        if layout.curated_questions.exists():
            questions = read_jsonl(layout.curated_questions, Question)
            paths["questions"] = layout.curated_questions
        answer_grades: list[HumanJudgment] = []
        curated = layout.curated_questions.with_name(CURATED_GRADES)
        if curated.exists():
            answer_grades = read_jsonl(curated, HumanJudgment)
            paths["human_judgments"] = curated
        generations: dict[str, list[Generation]] = {}
        if with_generations or answer_grades:
            for model in models:
                path = layout.generations(model)
                if path.exists():
                    generations[model] = read_jsonl(path, Generation)
                    paths[f"generations.{model}"] = path
        grades: list[HumanGrade] = []
        lines: list[int] = []
        if human_grades is not None:
            if not human_grades.exists():
                raise InputError(human_grades, "human grades file not found")
            for line, obj in iter_json_objects(human_grades):
                grades.append(validate_row(HumanGrade, obj, human_grades, line))
                lines.append(line)
            paths["human_grades"] = human_grades
        return cls(
            judge=judge,
            models=list(models),
            judgments=judgments,
            questions=questions,
            generations=generations,
            human_grades=grades,
            paths=paths,
            human_grade_lines=lines,
            answer_grades=answer_grades,
            judgment_lines=judgment_lines,
        )

    @property
    def rows(self) -> list[Judgment]:
        return [row for model in self.models for row in self.judgments.get(model, [])]

    @property
    def domains(self) -> dict[str, str | None]:
        return {q.id: q.domain for q in self.questions}


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
