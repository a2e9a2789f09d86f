"""Acceptance (#28): on NoMIRACL replay, the sufficiency check's rates from the dataset's labels
equal the NoMIRACL judge's, for every replayed model, per language and overall, row by row,
and aggregate gives them the same figures, counts and ranking, with intervals.

The fixture is the real upstream excerpt the released-table test replays (11 models' stored
outputs, null-prompt rows, blank outputs). The NoMIRACL judge config runs with no judge model,
so the check decides sufficiency from the labels alone: no LLM is called.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.config import compose
from parakh.config.stage_config import ParakhConfig
from parakh.datasets import load_dataset
from parakh.io import write_jsonl
from parakh.judging.sufficiency import CHECK, CONTEXT_HALLUCINATION, FALSE_REFUSAL
from parakh.judging.summary import judge_summary
from parakh.metrics.nomiracl import ERROR_METRIC, HALLUCINATION_METRIC
from parakh.schema import Judgment
from parakh.stage_outputs import Layout
from parakh.stages import aggregate
from tests.datasets.test_nomiracl_upstream import FIXTURE
from tests.judging.judge_files import replay_judged
from tests.judging.test_nomiracl_released_table import MODELS

SAME = {HALLUCINATION_METRIC: CONTEXT_HALLUCINATION, ERROR_METRIC: FALSE_REFUSAL}
RATE = {"hallucination": CONTEXT_HALLUCINATION, "error": FALSE_REFUSAL}


def _cfg(tmp: Path, parser: str) -> ParakhConfig:
    return compose(
        [
            "dataset=nomiracl",
            "judge=nomiracl",
            "+judge.checks=[sufficiency]",
            f"judge.parser={parser}",
            f"paths.processed={tmp / 'processed'}",
            f"paths.reports={tmp / 'reports'}",
            f"paths.cache={tmp / 'cache.sqlite'}",
            "tracking.enabled=false",
            "progress=false",
        ]
    )


@pytest.fixture(scope="module", params=["lenient", "released"])
def replayed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[ParakhConfig, dict[str, list[Judgment]]]:
    """The judge stage's rows of every replayed model, by model."""
    tmp = tmp_path_factory.mktemp(request.param)
    questions = load_dataset("nomiracl", FIXTURE, {}, strict=True).questions
    curated = tmp / "questions.jsonl"
    write_jsonl(curated, questions)
    cfg = _cfg(tmp, request.param)
    assert cfg.judge.model is None and cfg.judge.jury is None  # model-free: labels decide
    assert len(MODELS) == 11
    rows: dict[str, list[Judgment]] = {}
    for path in MODELS:
        model, rows[path.stem] = replay_judged(cfg, questions, curated, path, tmp)
        assert model.name == path.stem
    return cfg, rows


def test_labels_give_the_nomiracl_judges_rates_for_every_model(
    replayed: tuple[ParakhConfig, dict[str, list[Judgment]]],
) -> None:
    cfg, by_model = replayed
    compared = 0
    for model, rows in by_model.items():
        # row by row: the verdict row and the check's row of the same denominator agree
        verdicts = {r.question_id: r for r in rows if r.metric in SAME}
        checked = {
            (r.question_id, r.metric): r
            for r in rows
            if r.metric in SAME.values() and r.status != "skipped"
        }
        assert len(verdicts) == len(checked) > 0, model
        for qid, verdict in verdicts.items():
            mine = checked[(qid, SAME[verdict.metric])]
            assert (mine.status, mine.score) == (verdict.status, verdict.score), (model, qid)
        # the summaries' rates, per language and overall, numerators and denominators
        nomiracl = judge_summary(rows, nomiracl_parser=cfg.judge.parser)["nomiracl"]
        sufficiency = CHECK.summarize([r for r in rows if r.metric in SAME.values()])
        assert sufficiency is not None and set(sufficiency) == set(nomiracl)
        for language, theirs in nomiracl.items():
            for rate, metric in RATE.items():
                assert sufficiency[language][metric] == theirs[rate], (model, language)
                compared += theirs[rate]["denominator"]
            assert sufficiency[language]["sufficiency_from"].keys() == {"dataset"}
            assert sufficiency[language]["judge_agreement"] is None  # no judge was asked
    assert compared > 0


def test_aggregate_reports_them_as_it_reports_nomiracls_rates(
    replayed: tuple[ParakhConfig, dict[str, list[Judgment]]],
) -> None:
    cfg, by_model = replayed
    layout = Layout.of(cfg)
    for model, rows in by_model.items():
        write_jsonl(layout.judgments(cfg.judge.name, model), rows)
    result = aggregate.run(cfg, aggregate.load_inputs(cfg, layout, list(by_model)))
    board = result.board
    assert result.partial is None  # skipped rows cover the keys outside each denominator
    for theirs, mine in SAME.items():
        spec = board.spec(mine)
        assert (spec.direction, spec.aggregation, spec.declared) == ("lower", "rate", True)
        assert board.ranking(mine) == board.ranking(theirs)
        for model in by_model:
            for language in ["all", *board.languages]:
                a, b = board.get(model, theirs, language), board.get(model, mine, language)
                if a is None:  # no query of that subset: at most skipped rows of the check's
                    assert b is None or (b.mean, b.n) == (None, 0), (model, mine, language)
                    continue
                assert b is not None, (model, mine, language)
                assert (b.mean, b.n, b.invalid, b.errors) == (a.mean, a.n, a.invalid, a.errors)
                # the interval resamples every question with a row, skipped ones too, so the
                # denominator varies across resamples (NoMIRACL's stays in its subset)
                if b.mean is not None:
                    assert b.ci_low is not None and b.ci_high is not None
                    assert b.ci_low <= b.mean <= b.ci_high
