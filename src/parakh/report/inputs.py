"""What `aggregate` reads: questions, every model's judge rows and answers, human grades.

Loaded by path from a `Layout`, so the stage, `parakh reproduce` (from MLflow artifacts or a
DVC revision laid out in a temporary folder) and notebooks all read results the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from parakh.config.schema import ParakhConfig
from parakh.errors import ConfigError, InputError
from parakh.io import read_jsonl
from parakh.layout import Layout
from parakh.paths import project_root
from parakh.schema import Generation, HumanGrade, Judgment, Question


@dataclass
class AggregateInputs:
    judge: str
    models: list[str]
    judgments: dict[str, list[Judgment]]
    questions: list[Question] = field(default_factory=list)
    generations: dict[str, list[Generation]] = field(default_factory=dict)
    human_grades: list[HumanGrade] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)

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
        missing); the human grades file, when configured, must exist.
        """
        paths: dict[str, Path] = {}
        judgments: dict[str, list[Judgment]] = {}
        for model in models:
            path = layout.judgments(judge, model)
            if not path.exists():
                raise InputError(
                    path,
                    f"no judge output for model '{model}': run `dvc repro` or the judge stage "
                    "for it first",
                )
            judgments[model] = read_jsonl(path, Judgment)
            paths[f"judgments.{model}"] = path
        questions: list[Question] = []
        if layout.translated_questions.exists():
            questions = read_jsonl(layout.translated_questions, Question)
            paths["questions"] = layout.translated_questions
        generations: dict[str, list[Generation]] = {}
        if with_generations:
            for model in models:
                path = layout.generations(model)
                if path.exists():
                    generations[model] = read_jsonl(path, Generation)
                    paths[f"generations.{model}"] = path
        grades: list[HumanGrade] = []
        if human_grades is not None:
            if not human_grades.exists():
                raise InputError(human_grades, "human grades file not found")
            grades = read_jsonl(human_grades, HumanGrade)
            paths["human_grades"] = human_grades
        return cls(
            judge=judge,
            models=list(models),
            judgments=judgments,
            questions=questions,
            generations=generations,
            human_grades=grades,
            paths=paths,
        )

    @property
    def rows(self) -> list[Judgment]:
        return [row for model in self.models for row in self.judgments.get(model, [])]

    @property
    def domains(self) -> dict[str, str | None]:
        return {q.id: q.domain for q in self.questions}


def models_to_aggregate(cfg: ParakhConfig) -> list[str]:
    """`models=[...]` if given, else the sweep list in params.yaml (DVC's source of truth)."""
    if cfg.models is not None:
        return cfg.models
    params = project_root() / "params.yaml"
    if not params.is_file():
        raise ConfigError("no models to aggregate: pass models=[a,b] or add params.yaml")
    models = (yaml.safe_load(params.read_text(encoding="utf-8")) or {}).get("models")
    if not isinstance(models, list) or not models:
        raise InputError(params, "expected a non-empty list", field="models")
    return [str(m) for m in models]
