"""The aggregate stage: means over scored rows with counts beside them, the weighted aggregate,
and the stage run on a synthetic project (every dvc.yaml output, run spec, agreement)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from tests.conftest import REPO
from tests.report.synthetic_project import MODELS, judgments, make_project

from parakh.config import compose
from parakh.errors import ConfigError, InputError
from parakh.io import write_jsonl
from parakh.report.leaderboard import ALL, WEIGHTED
from parakh.report.tables import metrics_dict, slice_table
from parakh.schema import HumanGrade, Judgment
from parakh.stage_outputs import Layout
from parakh.stages import aggregate


def _row(model, metric, language, score, status="ok"):
    return Judgment(
        question_id=f"{model}{metric}{language}{score}",
        model=model,
        judge="j",
        metric=metric,
        language=language,
        status=status,
        score=score if status == "ok" else None,
        scale_max=2.0,
    )


def test_means_weights_and_counts(tmp_path: Path) -> None:
    """`run` on the inputs main_task reads, from judge files of rows that cover two of the
    judge's metrics (so the run is reported partial)."""
    cfg = compose(["aggregate.allow_partial=true"])
    rows = [
        _row("a", "factual_correctness", "en", 2),
        _row("a", "factual_correctness", "hi", 0),
        _row("a", "factual_correctness", "hi", None, status="invalid"),
        _row("a", "coherence", "en", 2),
        _row("a", "coherence", "hi", 2),
        _row("b", "factual_correctness", "en", 1),
        _row("b", "coherence", "en", 1),
        _row("b", "factual_correctness", "hi", 1),
        _row("b", "coherence", "hi", 1),
    ]
    layout = Layout(processed=tmp_path / "demo", reports=tmp_path / "reports")
    for model in ("a", "b"):
        write_jsonl(layout.judgments(cfg.judge.name, model), [r for r in rows if r.model == model])
    result = aggregate.run(cfg, aggregate.load_inputs(cfg, layout, ["a", "b"]))
    assert result.partial is not None
    board = result.board
    fc = board.get("a", "factual_correctness", ALL)
    assert fc is not None and fc.mean == 1.0 and fc.n == 2 and fc.invalid == 1
    w = cfg.aggregate.weights
    expected = (w["factual_correctness"] * 0.5 + w["coherence"] * 1.0) / (
        w["factual_correctness"] + w["coherence"]
    )
    weighted = board.get("a", WEIGHTED, ALL)
    assert weighted is not None and abs((weighted.mean or 0) - expected) < 1e-12
    assert board.metrics[0] == WEIGHTED
    scores = metrics_dict(board)
    assert scores["b"]["coherence"]["hi"] == 1.0
    table = slice_table(board, WEIGHTED, "language")
    assert table[0] == ["model", "en", "hi", ALL]


# --- the stage on a synthetic project -------------------------------------------------------


def _outputs_in_dvc_yaml(dataset: str, judge: str) -> list[str]:
    stage = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]["aggregate"]["do"]
    paths = []
    for section in ("outs", "metrics", "plots"):
        for entry in stage.get(section, []):
            name = entry if isinstance(entry, str) else next(iter(entry))
            paths.append(name.replace("${item}", dataset).replace("${judge}", judge))
    return paths


def test_dvc_plots_follow_every_dataset_and_judge() -> None:
    """The plots are the foreach stage's own, so DVC declares them per dataset of params.yaml;
    a top-level `plots:` block would name one dataset's files (tests/scale/test_dvc_failures.py
    runs `dvc plots show` on two)."""
    pipeline = yaml.safe_load((REPO / "dvc.yaml").read_text())
    assert "plots" not in pipeline
    plots = pipeline["stages"]["aggregate"]["do"]["plots"]
    names = [entry if isinstance(entry, str) else next(iter(entry)) for entry in plots]
    assert all(n.startswith("reports/${item}/${judge}/plots/") for n in names) and len(names) == 5
    drawn = [next(iter(e.values())) for e in plots if isinstance(e, dict)]
    assert [(d["x"], d["y"], d["cache"]) for d in drawn] == [("score", "slice", False)] * 2


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "project")
    monkeypatch.setenv("PARAKH_ROOT", str(root))
    return root


def test_stage_writes_every_output_dvc_yaml_declares(project: Path) -> None:
    cfg = compose(["tracking.enabled=false"])
    aggregate.main_task(cfg)
    outputs = _outputs_in_dvc_yaml("demo", "smoke")
    assert len(outputs) == 14
    for path in outputs:
        assert path.startswith("reports/demo/smoke/")
        if path.endswith("/answers"):  # answers.html's pages: none when one page holds them,
            found = [p.name for p in (project / path).iterdir()]  # only the note on the folder
            assert found == ["README.txt"], path
        else:
            assert (project / path).is_file(), path
    spec = json.loads((project / "reports/demo/smoke/leaderboard.runspec.json").read_text())
    assert spec["config"]["models"] == MODELS and spec["config"]["seed"] == 0
    assert set(spec["inputs"]) >= {"questions", "judgments.alpha", "generations.alpha"}
    before = {p: p.read_bytes() for p in (project / "reports").rglob("*") if p.is_file()}
    aggregate.main_task(cfg)
    after = {p: p.read_bytes() for p in (project / "reports").rglob("*") if p.is_file()}
    assert after == before


def test_report_outputs_do_not_change_with_the_commit(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """report.html is a DVC output: a commit hash in it would make the commit that records
    dvc.lock change the output it records. The commit goes to MLflow tags only."""
    cfg = compose(["tracking.enabled=false"])
    monkeypatch.setattr(aggregate, "git_commit", lambda: "a" * 40)
    aggregate.main_task(cfg)
    before = {p: p.read_bytes() for p in (project / "reports").rglob("*") if p.is_file()}
    monkeypatch.setattr(aggregate, "git_commit", lambda: "b" * 40)
    aggregate.main_task(cfg)
    after = {p: p.read_bytes() for p in (project / "reports").rglob("*") if p.is_file()}
    assert after == before
    assert b"a" * 40 not in (project / "reports/demo/smoke/report.html").read_bytes()


def _files(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_each_judge_has_its_own_report_folder(project: Path) -> None:
    """A second judge's leaderboard of the same dataset lands beside the first, not over it."""
    aggregate.main_task(compose(["tracking.enabled=false"]))
    smoke = _files(project / "reports/demo/smoke")
    for model in MODELS:
        rows = [r for r in judgments(model, judge="reference") if r.scale_max != 2.0]
        write_jsonl(project / f"data/processed/demo/judge/reference/{model}.jsonl", rows)
    # the reference judge as it wrote these rows: the synthetic project's reference metrics
    reference = ["judge=reference", "judge.reference_metrics=[token_f1,chrf]"]
    aggregate.main_task(compose(["tracking.enabled=false", *reference]))
    assert _files(project / "reports/demo/smoke") == smoke
    assert sorted(p.name for p in (project / "reports/demo").iterdir()) == ["reference", "smoke"]
    document = json.loads((project / "reports/demo/reference/leaderboard.json").read_text())
    assert set(document["models"]) == set(MODELS)
    spec = json.loads((project / "reports/demo/reference/leaderboard.runspec.json").read_text())
    assert spec["config"]["judge"]["name"] == "reference"
    assert "token_f1" in document["metrics"] and "factual_correctness" not in document["metrics"]


def test_reference_only_judge_ranks_by_its_first_metric(project: Path) -> None:
    for model in MODELS:
        path = project / f"data/processed/demo/judge/smoke/{model}.jsonl"
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        write_jsonl(path, [r for r in rows if r["scale_max"] != 2.0])
    reference_only = ["tracking.enabled=false", "judge.rubrics=[]"]  # as these rows were judged
    aggregate.main_task(compose(reference_only))
    document = json.loads((project / "reports/demo/smoke/leaderboard.json").read_text())
    assert document["primary_metric"] == "chrf" and WEIGHTED not in document["metrics"]
    with pytest.raises(ConfigError, match="Unknown metric 'bleu'"):
        aggregate.main_task(compose([*reference_only, "aggregate.primary_metric=bleu"]))


def test_configured_human_grades_reach_the_report(project: Path) -> None:
    grades = [
        HumanGrade(question_id=f"q{i:02d}", model=m, metric="factual_correctness", score=s)
        for i, s in enumerate([1, 2, 3, 4, 1, 4])
        for m in MODELS
    ]
    write_jsonl(project / "human.jsonl", grades)
    overrides = ["tracking.enabled=false", "aggregate.agreement.human_grades=human.jsonl"]
    # the grades file's first grade off the judge's 0..2 scale, named by file, line and field
    with pytest.raises(
        InputError,
        match=r"human\.jsonl, line 7, field 'metric': .*not on the "
        r"judge's 0\.\.2 scale",
    ):
        aggregate.main_task(compose(overrides))
    mapping = "+aggregate.agreement.mappings.factual_correctness.table={1: 0, 2: 0, 3: 1, 4: 2}"
    aggregate.main_task(compose([*overrides, mapping]))
    document = json.loads((project / "reports/demo/smoke/leaderboard.json").read_text())
    (agreement,) = document["agreement"]
    assert agreement["metric"] == "factual_correctness" and agreement["overall"]["n_pairs"] > 0
    page = (project / "reports/demo/smoke/report.html").read_text()
    assert "human grades mapped by table 1-&gt;0" in page


def test_missing_judge_output_names_the_file_and_the_fix(project: Path) -> None:
    with pytest.raises(Exception, match="no judge output for model 'delta'"):
        aggregate.main_task(compose(["tracking.enabled=false", "models=[alpha,delta]"]))
