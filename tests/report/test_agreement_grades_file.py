"""A grades file the run cannot compare is refused with its file, line and field; curated
grades of answers pair by answer text; a run without human grades has no agreement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.config import compose
from parakh.errors import InputError
from parakh.io import write_jsonl
from parakh.report.aggregate_result import compute
from parakh.report.agreement import answer_grades
from parakh.report.inputs import AggregateInputs
from parakh.schema import Generation, HumanJudgment, Judgment
from parakh.stage_outputs import Layout
from parakh.stats.agreement import ScaleMapping


def _row(qid: str, model: str, score: float, metric: str = "factual_correctness") -> Judgment:
    return Judgment(
        question_id=qid,
        model=model,
        judge="reference",
        metric=metric,
        language="en",
        status="ok",
        score=score,
        scale_max=2.0,
    )


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    layout = Layout(processed=tmp_path / "processed" / "demo", reports=tmp_path / "reports")
    for model, scores in (("a", [2, 1, 0]), ("b", [1, 1, 2])):
        rows = [_row(f"q{i}", model, s) for i, s in enumerate(scores)]
        write_jsonl(layout.judgments("reference", model), rows)
    return layout


def _cfg(tmp_path: Path, **mappings: dict[str, object]):  # type: ignore[no-untyped-def]
    cfg = compose(
        [f"paths.processed={tmp_path / 'processed'}", "tracking.enabled=false", "judge=reference"]
    )
    for metric, spec in mappings.items():
        cfg.aggregate.agreement.mappings[metric] = ScaleMapping.model_validate(spec)
    return cfg


def _grades(tmp_path: Path, *rows: dict[str, object]) -> Path:
    path = tmp_path / "grades.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


GOOD = {"question_id": "q0", "model": "a", "metric": "factual_correctness", "score": 2}


@pytest.mark.parametrize(
    ("bad", "field", "words"),
    [
        ({**GOOD, "question_id": "q9"}, "question_id", "unknown question id 'q9'"),
        ({**GOOD, "metric": "factual_corectness"}, "metric", "Did you mean 'factual_correctness'"),
        ({**GOOD, "score": 5, "scale_min": 1, "scale_max": 4}, "score", "outside its declared"),
        ({**GOOD, "score": 4, "scale_min": 1, "scale_max": 4}, "metric", "no declared mapping"),
    ],
)
def test_a_bad_grade_names_file_line_and_field(
    layout: Layout, tmp_path: Path, bad: dict[str, object], field: str, words: str
) -> None:
    path = _grades(tmp_path, GOOD, GOOD, bad)
    inputs = AggregateInputs.load(layout, "reference", ["a", "b"], human_grades=path)
    with pytest.raises(InputError) as caught:
        compute(_cfg(tmp_path), inputs)
    assert (caught.value.path, caught.value.line, caught.value.field) == (str(path), 3, field)
    assert words in str(caught.value) and f"{path}, line 3, field '{field}'" in str(caught.value)


def test_a_grade_the_declared_table_does_not_list_names_the_score(
    layout: Layout, tmp_path: Path
) -> None:
    path = _grades(tmp_path, {**GOOD, "score": 5, "scale_min": 1, "scale_max": 5})
    inputs = AggregateInputs.load(layout, "reference", ["a"], human_grades=path)
    table = {"table": {1: 0, 2: 0, 3: 1, 4: 2}}
    with pytest.raises(InputError, match="line 1, field 'score'.*grade 5 is not in"):
        compute(_cfg(tmp_path, factual_correctness=table), inputs)


def test_a_curated_grade_pairs_with_every_model_that_gave_its_text() -> None:
    graded = [
        HumanJudgment(
            id=f"h{i}",
            question_id="q1",
            answer_id=f"x{i}",
            answer=text,
            grade=g,
            scale_min=1,
            scale_max=4,
        )
        for i, (text, g) in enumerate([("same text", 3), ("other text", 1), ("nobody's", 2)])
    ]
    generations = {
        m: [Generation(question_id="q1", model=m, status="ok", response=text)]
        for m, text in (("a", "same text"), ("b", "same text"), ("c", "other text"))
    }
    rows = {m: [_row("q1", m, 1.0), _row("q1", m, 0.5, "chrf")] for m in ("a", "b", "c")}
    paired = answer_grades(graded, generations, rows)
    assert (paired.graded, paired.unmatched) == (3, 1)
    by = {(g.model, g.metric): g.score for g in paired.grades}
    assert by == {
        ("a", "factual_correctness"): 3,
        ("a", "chrf"): 3,
        ("b", "factual_correctness"): 3,
        ("b", "chrf"): 3,
        ("c", "factual_correctness"): 1,
        ("c", "chrf"): 1,
    }


def test_no_human_grades_no_agreement(layout: Layout, tmp_path: Path) -> None:
    inputs = AggregateInputs.load(layout, "reference", ["a", "b"])
    assert not inputs.answer_grades and "human_judgments" not in inputs.paths
    assert compute(_cfg(tmp_path), inputs).agreement == []
