"""Release gates on a small scripted leaderboard: bounds, paired not-worse tests with Holm's
correction, a baseline report, the config's checks and what gates.json, metrics and MLflow get."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError
from tests.report.judge_columns import judge_columns

from parakh.config.aggregate import AggregateConfig
from parakh.config.gates import GateConfig
from parakh.errors import ConfigError
from parakh.report.gates import (
    evaluate_gates,
    gate_flags,
    gate_metrics,
    gates_document,
    gates_markdown,
    gates_section,
)
from parakh.report.leaderboard import build_leaderboard
from parakh.report.tables import leaderboard_document
from parakh.schema import Judgment

N = 20  # questions per language
WEIGHTS = {"token_f1": 1.0}


def _row(model: str, language: str, i: int, metric: str, score: float) -> Judgment:
    return Judgment(
        question_id=f"{language}{i:02d}", model=model, judge="scripted", metric=metric,
        language=language, status="ok", score=score,
    )  # fmt: skip


def _rows() -> list[Judgment]:
    """`cand` is far worse than `base` on every Hindi question, a little worse in Tamil;
    its hallucination rate is 0.5 in Hindi, 0 in Tamil."""
    rows = []
    for i in range(N):
        jitter = (i % 5) / 100
        rows += [
            _row("base", "hi", i, "token_f1", 0.85 + jitter),
            _row("cand", "hi", i, "token_f1", 0.35 + jitter),
            _row("base", "ta", i, "token_f1", 0.80 + jitter),
            _row("cand", "ta", i, "token_f1", 0.80 + (0.03 if i % 3 else -0.08) + jitter),
        ]
        for model in ("base", "cand"):
            rows.append(_row(model, "hi", i, "nomiracl_hallucination", float(i % 2)))
            rows.append(_row(model, "ta", i, "nomiracl_hallucination", 0.0))
    return rows


@pytest.fixture(scope="module")
def columns():
    return judge_columns(_rows())


@pytest.fixture(scope="module")
def board(columns):
    return build_leaderboard(columns, ["base", "cand"], WEIGHTS)


def _gates(*specs: dict) -> list[GateConfig]:
    return AggregateConfig.model_validate({"weights": WEIGHTS, "gates": list(specs)}).gates


def _by_key(checks):
    return {(c.gate, c.model, c.language): c for c in checks}


def test_a_bound_fails_where_the_mean_is_below_it_and_names_the_figures(board, columns) -> None:
    gates = _gates({"name": "hindi-f1", "metric": "token_f1", "languages": "hi", "min": 0.8})
    checks = _by_key(evaluate_gates(gates, board, columns, WEIGHTS))
    assert set(checks) == {("hindi-f1", "base", "hi"), ("hindi-f1", "cand", "hi")}
    assert checks[("hindi-f1", "base", "hi")].passed
    failed = checks[("hindi-f1", "cand", "hi")]
    assert not failed.passed
    assert failed.line().startswith("gate hindi-f1: model cand, language hi: token_f1 mean 0.37")
    assert "< min 0.8" in failed.line() and "n=20" in failed.line()
    assert failed.figures["min"] == 0.8 and failed.figures["mean"] == pytest.approx(0.37)


def test_a_max_bound_on_a_rate_and_the_interval_figure(board, columns) -> None:
    gates = _gates(
        {"name": "halluc", "metric": "nomiracl_hallucination", "max": 0.3},
        {"name": "f1-sure", "metric": "token_f1", "models": ["base"], "min": 0.868,
         "figure": "interval"},
    )  # fmt: skip
    checks = _by_key(evaluate_gates(gates, board, columns, WEIGHTS))
    assert [c.language for c in checks.values() if c.gate == "halluc"][:3] == ["all", "hi", "ta"]
    assert not checks[("halluc", "cand", "hi")].passed  # 0.5 > 0.3
    assert "> max 0.3" in checks[("halluc", "cand", "hi")].text
    assert checks[("halluc", "cand", "ta")].passed
    assert checks[("halluc", "cand", "all")].passed  # 0.25
    # base's Hindi mean (0.87) clears 0.868, its interval's low end (0.864) does not
    sure = checks[("f1-sure", "base", "hi")]
    assert sure.figures["mean"] > 0.868 and not sure.passed and "interval end 0.864" in sure.text


def test_not_worse_fails_only_where_the_holm_adjusted_test_says_worse(board, columns) -> None:
    gates = _gates({"name": "no-regress", "metric": "token_f1", "baseline_model": "base"})
    checks = _by_key(evaluate_gates(gates, board, columns, WEIGHTS))
    assert {k[1] for k in checks} == {"cand"}  # the baseline is not gated against itself
    hindi, tamil = checks[("no-regress", "cand", "hi")], checks[("no-regress", "cand", "ta")]
    assert not hindi.passed and tamil.passed
    assert hindi.figures["difference"] == pytest.approx(-0.5)
    assert tamil.figures["difference"] == pytest.approx(-0.0085)  # worse, not significantly
    assert hindi.figures["p_holm"] < 0.05 <= tamil.figures["p_holm"]
    # Holm over the model's three tests (all, hi, ta): the smallest p is multiplied by 3
    assert hindi.figures["p_holm"] >= hindi.figures["p_value"]
    assert "worse (alpha 0.05)" in hindi.text and "Holm p" in hindi.text
    assert "not significantly worse" in tamil.text
    again = _by_key(evaluate_gates(gates, board, columns, WEIGHTS))
    assert again == checks  # seeded


def test_not_worse_than_a_baseline_report_compares_intervals(board, columns, tmp_path) -> None:
    path = tmp_path / "leaderboard.json"
    path.write_text(json.dumps(leaderboard_document(board)), encoding="utf-8")
    gates = _gates(
        {"name": "vs-exp", "metric": "token_f1", "baseline_model": "base",
         "baseline_report": str(path)},
        {"name": "vs-self", "metric": "token_f1", "baseline_report": str(path)},
    )  # fmt: skip
    checks = _by_key(evaluate_gates(gates, board, columns, WEIGHTS))
    assert not checks[("vs-exp", "cand", "hi")].passed
    assert "intervals do not overlap" in checks[("vs-exp", "cand", "hi")].text
    assert checks[("vs-exp", "cand", "ta")].passed
    assert checks[("vs-exp", "base", "hi")].passed  # a baseline model is gated, against itself
    assert all(c.passed for c in checks.values() if c.gate == "vs-self")


def test_unknown_names_and_a_bound_on_the_wrong_side_are_config_errors(board, columns) -> None:
    cases = [
        ({"metric": "token_f", "min": 0.5}, "Unknown metric 'token_f'. Did you mean"),
        ({"metric": "token_f1", "languages": ["hx"], "min": 0.5}, "Unknown language 'hx'"),
        ({"metric": "token_f1", "models": ["cnd"], "min": 0.5}, "Unknown model 'cnd'"),
        ({"metric": "token_f1", "baseline_model": "bse"}, "Unknown model 'bse'"),
        ({"metric": "nomiracl_hallucination", "min": 0.1}, "lower is better, so its bound"),
        ({"metric": "token_f1", "max": 0.9}, "higher is better, so its bound is `min`"),
    ]
    for spec, message in cases:
        with pytest.raises(ConfigError, match=message.replace("(", r"\(")) as found:
            evaluate_gates(_gates({"name": "g", **spec}), board, columns, WEIGHTS)
        assert "aggregate.gates 'g'" in str(found.value)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"min": 0.5, "max": 0.9}, "give one of `min`, `max`"),
        ({}, "give one of `min`, `max`"),
        ({"min": 0.5, "baseline_model": "base"}, "give one of"),
        ({"baseline_model": "base", "figure": "interval"}, "`figure` applies to"),
        ({"min": 0.5, "op": ">="}, "Extra inputs"),
        ({"min": 0.5, "figure": "median"}, "'mean' or 'interval'"),
        ({"baseline_model": "base", "alpha": 1.5}, "less than 1"),
        ({"min": 0.5, "name": "has space"}, "should match pattern"),
    ],
)
def test_a_gate_config_says_what_is_wrong(spec: dict, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        _gates({"name": "g", "metric": "token_f1", **spec})


def test_gate_names_are_distinct() -> None:
    gate = {"name": "g", "metric": "token_f1", "min": 0.5}
    with pytest.raises(ValidationError, match="distinct: g repeated"):
        _gates(gate, gate)
    assert AggregateConfig.model_validate({"weights": WEIGHTS}).gates == []


def test_results_for_gates_json_metrics_mlflow_and_the_report(board, columns) -> None:
    gates = _gates({"name": "hindi-f1", "metric": "token_f1", "languages": "hi", "min": 0.8})
    checks = evaluate_gates(gates, board, columns, WEIGHTS)
    document = gates_document(checks, None)
    assert document["passed"] is False and len(document["checks"]) == 2
    assert json.loads(json.dumps(document))["checks"][1]["model"] == "cand"
    assert gates_document(checks[:1], None)["passed"] is True
    assert gates_document(checks[:1], "partial run: 3 of 4 rows")["passed"] is False
    assert gate_flags(checks) == {"hindi-f1": {"base": {"hi": 1}, "cand": {"hi": 0}}}
    assert gate_metrics(checks) == {
        "gate.hindi-f1": 0.0, "gate.hindi-f1.base.hi": 1.0, "gate.hindi-f1.cand.hi": 0.0
    }  # fmt: skip
    markdown = "\n".join(gates_markdown(checks))
    assert "1 of 2 checks passed" in markdown and "- FAIL gate hindi-f1: model cand" in markdown
    section = gates_section(checks)
    assert 'id="gates"' in section and "<strong>FAIL</strong>" in section
    assert gates_markdown([]) == [] and gates_section([]) == ""
