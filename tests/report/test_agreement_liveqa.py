"""Judge-human agreement as a pipeline output, on the shared LiveQA-Med data.

Curate the mirror's judged pairs, replay its 9 answer sources as models, score them with the
reference judge (no LLM), aggregate, and recompute chrF's agreement with the human grades here
with scipy and scikit-learn from the judge rows and the curated grades.

The mirror holds no reference answers for these questions, so each question's reference is
its own text (as bench/agreement.py's answer_vs_question): chrF then measures how much of the
consumer's question an answer covers, which is what the assessors' grades reward in part.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from scipy import stats as scipy_stats
from sklearn.metrics import cohen_kappa_score
from tests.conftest import SHARED_DATA
from tests.judging.judge_files import judged

from parakh.backends import make_backend
from parakh.config import compose
from parakh.config.model import ReplayModel
from parakh.datasets.registry import load_dataset
from parakh.io import write_jsonl
from parakh.report.aggregate_result import compute, output_paths, write_reports
from parakh.report.agreement import MetricAgreement
from parakh.report.files import ReportFiles
from parakh.report.inputs import AggregateInputs
from parakh.stage_outputs import Layout
from parakh.stages import curate, generate
from parakh.stats.agreement import ScaleMapping
from parakh.tracking.metric_names import sweep_metrics

REPO = Path(__file__).resolve().parents[2]
MODELS = sorted((REPO / "conf" / "model").glob("liveqa-*.yaml"))
OPTIONS = {"question_field": "NLM-Summary"}
# A categorical view of chrF (0..100) on the LiveQA 1..4 scale, declared as any user would.
CHRF_BINS = {"applies_to": "judge", "thresholds": [10, 20, 30], "labels": [1, 2, 3, 4]}


@pytest.fixture(scope="module")
def liveqa_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Layout, list[str]]:
    folder = SHARED_DATA / "liveqa_med_judgments"  # module-scoped: the `shared_data` check
    if not folder.is_dir():
        pytest.skip("../shared/data/liveqa_med_judgments is not present")
    tmp = tmp_path_factory.mktemp("liveqa")
    cfg = _config(tmp)
    layout = Layout.of(cfg)
    curated = curate.run(cfg, load_dataset("liveqa_med", folder, OPTIONS))
    questions = [q.model_copy(update={"reference_answers": [q.text]}) for q in curated.questions]
    write_jsonl(layout.curated_questions, questions)
    graded = layout.curated_questions.with_name("human_judgments.jsonl")
    write_jsonl(graded, curated.judgments)
    models = []
    for path in MODELS:
        model = ReplayModel.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        model = model.model_copy(update={"answers": str(graded)})
        run_cfg = cfg.model_copy(update={"model": model})
        answers = generate.run(
            run_cfg, questions, [], make_backend(model), None, tmp / f".{model.name}.g.jsonl"
        ).generations
        answered = [g for g in answers if g.status == "ok"]
        asked = [q for q in questions if q.id in {g.question_id for g in answered}]
        rows = judged(run_cfg, asked, answered, [], tmp / f".{model.name}.j.jsonl")
        write_jsonl(layout.generations(model.name), answered)
        write_jsonl(layout.judgments(cfg.judge.name, model.name), rows)
        models.append(model.name)
    return layout, models


def _config(tmp: Path, *extra: str):  # type: ignore[no-untyped-def]
    return compose(
        [
            "dataset=liveqa_judgments",
            "judge=reference",
            f"paths.processed={tmp / 'processed'}",
            f"paths.reports={tmp / 'reports'}",
            f"paths.cache={tmp / 'cache.sqlite'}",
            "tracking.enabled=false",
            "progress=false",
            "aggregate.statistics.bootstrap_resamples=200",
            *extra,
        ]
    )


def _chrf(agreement: list[MetricAgreement]) -> MetricAgreement:
    (found,) = [a for a in agreement if a.metric == "chrf" and a.source == "answers"]
    return found


def _pairs(inputs: AggregateInputs) -> tuple[list[float], list[float]]:
    """(chrF, human grade) for every chrF row whose answer text a human graded, here."""
    judge_scores, grades = [], []
    for model in inputs.models:
        text = {g.question_id: g.response for g in inputs.generations[model]}
        for row in inputs.judgments[model]:
            if row.metric != "chrf" or row.status != "ok":
                continue
            for human in inputs.answer_grades:
                if human.question_id == row.question_id and human.answer == text[row.question_id]:
                    judge_scores.append(float(row.score))  # type: ignore[arg-type]
                    grades.append(human.grade)
    return judge_scores, grades


def test_chrf_rank_agreement_equals_scipy(liveqa_run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    layout, models = liveqa_run
    cfg = _config(tmp_path)
    inputs = AggregateInputs.load(layout, "reference", models, with_generations=False)
    assert inputs.answer_grades and set(inputs.generations) == set(models)
    chrf = _chrf(compute(cfg, inputs).agreement)
    judge_scores, grades = _pairs(inputs)
    assert len(judge_scores) == chrf.overall.n_pairs > 100
    # chrF (0..100) and grades (1..4): no declared mapping, so rank correlations only
    assert chrf.overall.percent_agreement is None and chrf.overall.cohen_kappa is None
    assert "rank correlations only" in chrf.mapping
    rho = scipy_stats.spearmanr(judge_scores, grades).statistic
    tau = scipy_stats.kendalltau(judge_scores, grades).statistic
    assert chrf.overall.spearman == pytest.approx(rho, abs=1e-9)
    assert chrf.overall.kendall_tau == pytest.approx(tau, abs=1e-9)
    low, high = chrf.overall.intervals["spearman"]
    assert low <= rho <= high
    assert chrf.ranking is not None and chrf.ranking.n_models == len(models)
    assert set(chrf.by_model) == set(models)
    assert chrf.unpaired_human_grades["answer given by no model"] > 0


def test_chrf_with_declared_bins_gets_agreement_and_kappa(liveqa_run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    layout, models = liveqa_run
    cfg = _config(tmp_path)
    cfg.aggregate.agreement.mappings["chrf"] = ScaleMapping.model_validate(CHRF_BINS)
    inputs = AggregateInputs.load(layout, "reference", models)
    chrf = _chrf(compute(cfg, inputs).agreement)
    judge_scores, grades = _pairs(inputs)
    binned = np.digitize(judge_scores, CHRF_BINS["thresholds"]) + 1.0
    expected = 100.0 * float(np.mean(binned == np.asarray(grades)))
    assert chrf.overall.percent_agreement == pytest.approx(expected, abs=1e-9)
    labels = [1.0, 2.0, 3.0, 4.0]
    kappa = cohen_kappa_score(binned, grades, labels=labels)
    linear = cohen_kappa_score(binned, grades, labels=labels, weights="linear")
    assert chrf.overall.cohen_kappa == pytest.approx(kappa, abs=1e-9)
    assert chrf.overall.cohen_kappa_linear == pytest.approx(linear, abs=1e-9)
    rho = scipy_stats.spearmanr(binned, grades).statistic
    assert chrf.overall.spearman == pytest.approx(rho, abs=1e-9)
    assert set(chrf.overall.intervals) >= {"percent_agreement", "cohen_kappa", "spearman"}


def test_agreement_is_deterministic(liveqa_run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    layout, models = liveqa_run
    cfg = _config(tmp_path)
    first = compute(cfg, AggregateInputs.load(layout, "reference", models)).document()
    again = compute(cfg, AggregateInputs.load(layout, "reference", models)).document()
    assert first["agreement"] == again["agreement"]


def test_reports_show_agreement_in_html_dvc_metrics_and_a_table(liveqa_run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    layout, models = liveqa_run
    cfg = _config(tmp_path)
    inputs = AggregateInputs.load(layout, "reference", models)
    result = compute(cfg, inputs)
    files = ReportFiles(tmp_path / "report")
    write_reports(cfg, result, inputs, files, provenance={})
    chrf = _chrf(result.agreement)
    metrics = json.loads(files.metrics_json.read_text(encoding="utf-8"))
    figures = metrics["judge_human_agreement"]["answers.chrf"]
    assert figures["spearman"] == chrf.overall.spearman
    assert figures["ranking_kendall_tau"] == chrf.ranking.kendall_tau  # type: ignore[union-attr]
    assert {"spearman_ci_low", "ranking_kendall_tau_ci_high"} <= set(figures)
    page = files.report_html.read_text(encoding="utf-8")
    assert 'id="agreement-chart"' in page and "Model ranking: chrf (answers)" in page
    assert 'id="bias-table"' in page
    table = json.loads((files.root / "agreement.json").read_text(encoding="utf-8"))
    row = dict(zip(table["columns"], table["data"][0], strict=True))
    assert row["source"] == "answers" and row["slice"] == "all"
    assert (files.root / "agreement.json") in output_paths(files, cfg)
    sweep = sweep_metrics([], result.document()["agreement"])
    assert sweep["agreement.answers.chrf.all.spearman"] == chrf.overall.spearman
    assert "agreement.answers.chrf.ranking.kendall_tau.ci_low" in sweep
