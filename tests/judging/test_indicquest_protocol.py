"""The IndicQuest protocol as the paper ran it: its five criteria plus a judge-written Overall
on 1..5 (decimals allowed), Overall ranks the leaderboard, and rouge-score's ASCII ROUGE-L is
reported beside the script-aware one.

The criteria and JSON keys are those of the authors' evaluator prompt
(L3Cube-IndicQuest/eval_prompt.txt in l3cube-pune/indic-nlp).
"""

from __future__ import annotations

import pytest

from parakh.config import compose
from parakh.metrics.registry import metric_spec
from parakh.metrics.rubric import load_rubric
from parakh.report.aggregate_result import compute, render_markdown
from parakh.report.inputs import AggregateInputs
from parakh.schema import Judgment

PAPER_CRITERIA = [
    "Factual Accuracy",
    "Relevance",
    "Clarity",
    "Language Consistency",
    "Conciseness",
    "Overall",
]


def test_rubric_has_the_papers_criteria_keys_titles_and_scale() -> None:
    rubric = load_rubric("indicquest")
    assert [c.key for c in rubric.criteria] == PAPER_CRITERIA
    assert [c.title for c in rubric.criteria] == PAPER_CRITERIA
    assert (rubric.scale.min, rubric.scale.max, rubric.scale.integer) == (1, 5, False)
    for criterion in rubric.criteria:
        spec = metric_spec(criterion.name)
        assert (spec.direction, spec.scale_min, spec.scale_max) == ("higher", 1.0, 5.0)


def test_the_judge_config_ranks_by_overall_and_reports_the_papers_f1_and_rouge_l() -> None:
    cfg = compose(["judge=indicquest"])
    assert cfg.judge.primary_metric == "iq_overall"  # Parakh's choice (the paper combines)
    assert cfg.judge.rubrics == ["indicquest"] and cfg.judge.prompt == "judge_indicquest"
    metrics = cfg.judge.reference_metrics
    assert "token_f1" in metrics and "rouge_l" in metrics
    # the paper names no tokenizer, so no rouge-score compatibility metric stands for it
    assert "ascii_rouge" not in metrics
    ranked_by_f1 = compose(["judge=indicquest", "judge.primary_metric=token_f1"])
    assert ranked_by_f1.judge.primary_metric == "token_f1"


def _rows(model: str, overall: list[float], other: float) -> list[Judgment]:
    """`overall` per question on iq_overall; `other` on every other criterion and metric."""
    rubric = load_rubric("indicquest")
    scored: dict[str, tuple[float, float]] = {c.name: (other, 5.0) for c in rubric.criteria}
    scored |= {"rouge_l": (other / 5, 1.0)}
    scored |= {"chrf": (other * 20, 100.0), "token_f1": (other / 5, 1.0)}
    rows = []
    for i, value in enumerate(overall):
        for metric, (score, scale_max) in scored.items():
            rows.append(
                Judgment(
                    question_id=f"q{i}",
                    model=model,
                    judge="indicquest",
                    metric=metric,
                    language="hi",
                    status="ok",
                    score=value if metric == "iq_overall" else score,
                    scale_max=scale_max,
                )
            )
    return rows


def test_leaderboard_is_ranked_by_overall_not_by_any_other_criterion_or_metric() -> None:
    """`leads` is better on every criterion and metric except Overall (decimal scores)."""
    overall = _rows("overall_best", [4.5, 3.5, 4.0, 4.5], other=1.5)
    leads = _rows("leads_elsewhere", [2.5, 3.0, 2.0, 2.5], other=4.5)
    cfg = compose(["judge=indicquest", "aggregate.statistics.bootstrap_resamples=200"])
    inputs = AggregateInputs(
        judge="indicquest",
        models=["leads_elsewhere", "overall_best"],
        judgments={"overall_best": overall, "leads_elsewhere": leads},
    )
    result = compute(cfg, inputs)
    assert result.primary == "iq_overall"
    board = result.board
    assert board.ranking("iq_overall") == ["overall_best", "leads_elsewhere"]
    for metric in ("iq_factual_accuracy", "iq_clarity", "rouge_l", "token_f1", "chrf"):
        assert board.ranking(metric) == ["leads_elsewhere", "overall_best"], metric
    assert board.get("overall_best", "iq_overall").mean == pytest.approx(4.125)
    text = render_markdown(cfg, result)
    assert "Primary metric: `iq_overall` (higher is better)." in text
    assert "| 1 | overall_best |" in text and "| 2 | leads_elsewhere |" in text
