"""Cost and latency on the leaderboard (#28): generate, judge and aggregate run on scripted
models with prices; every cost is counted again here from the recorded token usage and the
configured prices, latency comes from the ledgers, and a model without prices has no cost."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.conftest import REPO

from parakh.backends.accounting import item_cost
from parakh.config import compose
from parakh.config.model import Prices
from parakh.io import read_jsonl, write_json, write_jsonl
from parakh.judging.summary import merged_usage
from parakh.report.costs import pareto_front
from parakh.schema import Generation, Question, Retrieval
from parakh.stages import aggregate, generate, judge
from parakh.tracking.metric_names import figures_of
from parakh.tracking.reproduce import compare

ANSWERERS = {
    "priced": {"input_per_mtok": 3000.0, "output_per_mtok": 15000.0},
    "cheap": {"input_per_mtok": 100.0, "output_per_mtok": 400.0},
    "unpriced": None,
}
JUDGE_PRICES = {"input_per_mtok": 1000.0, "output_per_mtok": 2000.0}
QUESTIONS = [
    Question(
        id=f"q{i}",
        text=f"Question {i}: when may I wash my hair?",
        language="en",
        reference_answers=["After ten days."],
    )
    for i in range(6)
]
REPORTS = Path("reports/demo/costed")


def _project(root: Path) -> Path:
    shutil.copytree(REPO / "conf", root / "conf")
    for name, prices in ANSWERERS.items():
        model: dict[str, Any] = {"name": name, "backend": "scripted", "prices": prices}
        # answers of different lengths: each question costs its own
        model["responses"] = {
            q.id: "After ten days, " + "and so on " * i for i, q in enumerate(QUESTIONS)
        }
        (root / "conf/model" / f"{name}.yaml").write_text(yaml.safe_dump(model))
    judge_model = {
        "name": "priced_judge",
        "backend": "scripted",
        "prices": JUDGE_PRICES,
        "default_response": '{"Score": 2, "Justification": "clear"}',
    }
    (root / "conf/model/priced_judge.yaml").write_text(yaml.safe_dump(judge_model))
    costed = {
        "defaults": [{"/model@model": "priced_judge"}],
        "name": "costed",
        "prompt": "judge_healthbot",
        "rubrics": ["coherence"],
        "reference_metrics": ["token_f1"],
        "primary_metric": "coherence",
        "max_tokens": 400,
        "max_justification_chars": 60,
    }
    (root / "conf/judge/costed.yaml").write_text(yaml.safe_dump(costed, sort_keys=False))
    processed = root / "data/processed/demo"
    write_jsonl(processed / "curate/questions.jsonl", QUESTIONS)
    empty = [Retrieval(question_id=q.id, raw_chunks=[], kb_update_chunks=[]) for q in QUESTIONS]
    write_jsonl(processed / "index/retrieval.jsonl", empty)
    return root


def _aggregate() -> None:
    aggregate.main_task(
        compose(
            [
                "judge=costed",
                f"models=[{','.join(ANSWERERS)}]",
                "tracking.enabled=false",
                "progress=false",
                "aggregate.statistics.bootstrap_resamples=200",
            ]
        )
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _project(tmp_path_factory.mktemp("costs") / "project")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PARAKH_ROOT", str(root))
        for name in ANSWERERS:
            generate.main_task(compose([f"model={name}", "progress=false"]))
            judge.main_task(compose([f"model={name}", "judge=costed", "progress=false"]))
        _aggregate()
    return root


def _costs(root: Path) -> dict[str, dict[str, Any]]:
    document = json.loads((root / REPORTS / "leaderboard.json").read_text(encoding="utf-8"))
    return {c["model"]: c for c in document["costs"]}


def _cost_row(root: Path, model: str) -> str:
    board = (root / REPORTS / "leaderboard.md").read_text(encoding="utf-8")
    section = board.split("## Cost and latency")[1]
    return next(line for line in section.splitlines() if line.startswith(f"| {model} |"))


def test_generation_and_judge_cost_equal_a_count_from_usage_and_prices(project: Path) -> None:
    costs = _costs(project)
    for name in ("priced", "cheap"):
        prices = Prices(**ANSWERERS[name])
        rows = read_jsonl(project / f"data/processed/demo/generate/{name}.jsonl", Generation)
        each = [item_cost(prices, g.usage.prompt_tokens, g.usage.completion_tokens) for g in rows]
        assert all(c is not None and c > 0 for c in each)
        spent = sum(c for c in each if c is not None)
        g = costs[name]["generate"]
        assert g["prompt_tokens"] == sum(r.usage.prompt_tokens for r in rows)
        assert g["cost_usd"] == pytest.approx(spent, abs=1e-6)
        assert g["cost_per_1k_questions"] == pytest.approx(1000 * spent / len(rows), abs=1e-6)
        low, high = g["cost_per_1k_questions_ci_low"], g["cost_per_1k_questions_ci_high"]
        assert low < g["cost_per_1k_questions"] < high
        # the judge's own cost: its calls as the ledger recorded them, at the judge's prices
        ledger = project / f".parakh/accounting/demo/judge/costed/{name}.json"
        calls = json.loads(ledger.read_text())["jurors"]["priced_judge"]["items"]
        assert len(calls) == len(QUESTIONS)  # one coherence call a question, none repaired
        prompt = sum(c["prompt_tokens"] for c in calls)
        completion = sum(c["completion_tokens"] for c in calls)
        judged = costs[name]["judge"]["priced_judge"]
        assert (judged["prompt_tokens"], judged["completion_tokens"]) == (prompt, completion)
        expected = item_cost(Prices(**JUDGE_PRICES), prompt, completion)
        assert judged["cost_usd"] == pytest.approx(expected, abs=1e-6)
    assert costs["cheap"]["generate"]["cost_usd"] < costs["priced"]["generate"]["cost_usd"]


def test_a_model_without_prices_has_no_cost_never_zero(project: Path) -> None:
    g = _costs(project)["unpriced"]["generate"]
    assert g["prompt_tokens"] > 0 and g["cost_usd"] is None and g["cost_per_1k_questions"] is None
    row = _cost_row(project, "unpriced")
    assert [cell.strip() for cell in row.split("|")][5:7] == ["no price", "no price"]
    with (project / REPORTS / "leaderboard.csv").open(encoding="utf-8") as f:
        found = next(r for r in csv.DictReader(f) if r["model"] == "unpriced")
    assert found["generate_cost_usd"] == "" and found["cost_per_1k_questions"] == ""
    metrics = json.loads((project / REPORTS / "metrics.json").read_text())["cost_and_latency"]
    assert "generate.cost_usd" not in metrics["unpriced"]
    assert (
        metrics["priced"]["generate.cost_usd"] == _costs(project)["priced"]["generate"]["cost_usd"]
    )


def test_costs_are_in_every_output_and_mlflow_names(project: Path) -> None:
    folder = project / REPORTS
    assert "## Cost and latency" in (folder / "leaderboard.md").read_text()
    assert 'id="costs"' in (folder / "report.html").read_text()
    assert (folder / "plots/cost.png").stat().st_size > 1000
    document = json.loads((folder / "leaderboard.json").read_text())
    assert document["cost_front"]  # cheapest is on the front whatever it scores
    figures = figures_of(document, document["models"])
    assert figures["priced"]["judge.priced_judge.cost_usd"] > 0
    assert figures["priced"]["generate.cost_per_1k_questions_ci_low"] > 0
    # measured figures are not rebuilt by `parakh reproduce`: no difference when they differ
    changed = json.loads(json.dumps(figures))
    changed["priced"]["generate.latency_p50_s"] = 99.0
    assert compare(figures, changed)[1] == []


def test_cached_answers_count_their_original_cost_once_and_say_so(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARAKH_ROOT", str(project))
    answers = project / "data/processed/demo/generate/priced.jsonl"
    before, costs = answers.read_bytes(), _costs(project)["priced"]["generate"]
    generate.main_task(compose(["model=priced", "progress=false"]))  # every answer cached
    _aggregate()
    assert answers.read_bytes() == before  # the rows hold no latency or cache flag
    again = _costs(project)["priced"]["generate"]
    assert again["cached"] == len(QUESTIONS) and costs["cached"] == 0
    assert {k: v for k, v in again.items() if k != "cached"} == {
        k: v for k, v in costs.items() if k != "cached"
    }


def test_latency_comes_from_a_matching_ledger_else_not_measured(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARAKH_ROOT", str(project))
    ledger = project / ".parakh/accounting/demo/cheap.json"
    recorded = json.loads(ledger.read_text())
    latencies = [0.4, 0.1, 0.3, 2.0, 0.2, 0.5]  # a cached one keeps its original latency
    for item, latency in zip(recorded["items"], latencies, strict=True):
        item.update(latency_s=latency, cached=latency == 2.0)
    write_json(ledger, recorded)
    _aggregate()
    g = _costs(project)["cheap"]["generate"]
    assert (g["latency_p50_s"], g["latency_p95_s"], g["cached"]) == (0.4, 2.0, 1)
    recorded["items"][0]["prompt_tokens"] += 1  # another run's ledger: not these answers'
    write_json(ledger, recorded)
    _aggregate()
    g = _costs(project)["cheap"]["generate"]
    assert g["latency_p50_s"] is None and g["cached"] is None
    assert "not measured" in _cost_row(project, "cheap")


def test_pareto_front_keeps_models_no_other_beats_on_cost_and_score() -> None:
    points = {"a": (1.0, 0.5), "b": (2.0, 0.9), "c": (2.0, 0.4), "d": (3.0, 0.9)}
    assert pareto_front(points, higher_is_better=True) == {"a", "b"}
    assert pareto_front(points, higher_is_better=False) == {"a", "c"}


def test_shards_usage_adds_up_to_a_single_run() -> None:
    prices = {"input_per_mtok": 1.0, "output_per_mtok": 2.0}
    shard = {"calls": 2, "prompt_tokens": 10, "completion_tokens": 4, "prices": prices}
    other = {"calls": 1, "prompt_tokens": 5, "completion_tokens": 2, "prices": prices}
    merged = merged_usage([{"usage": {"j": shard}}, {"usage": {"j": other}}, {}])
    assert merged == {
        "j": {"calls": 3, "prompt_tokens": 15, "completion_tokens": 6, "prices": prices}
    }
