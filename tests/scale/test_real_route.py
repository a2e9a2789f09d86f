"""The main route on real data, as a user runs it: `parakh import-data` brings a dataset into
data/raw/ (here from the shared mirror, as `--source`), then `dvc repro` builds its leaderboard.

CataractBot: the extractive baseline judged by reference metrics. NoMIRACL, through its
protocol (`parakh protocol nomiracl --run`): the authors' 11 stored model outputs replayed as
models and judged by the `nomiracl` judge with the released parser; the leaderboard is ranked by
hallucination rate, lowest first, and every rate equals FP / (FP + TN) on the non-relevant
queries, counted here from the replayed answers (invalid outputs in neither).
LiveQA-Med: imported without `--source`, from upstream's two files (local git repositories
holding them where upstream does, rebuilt from the mirror), its 9 answer sources replayed from
curate's judgments and scored against the questions' reference answers.
Real git and DVC in a temp copy of the project; slices keep the run short.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from parakh.io import read_jsonl
from parakh.metrics.nomiracl import (
    ANSWER_PRESENT,
    I_DONT_KNOW,
    classify_nomiracl_output,
    classify_released,
)
from parakh.schema import Generation, Question
from tests.conftest import REPO, SHARED_DATA
from tests.datasets.liveqa_upstream import point_source_at, upstream_repos
from tests.support.dvc_project import (
    copy_project,
    git_init,
    run_command,
    stage_env,
    update_yaml,
)
from tests.support.health_report import SCORED_BY_SMOKE, assert_health_report

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is not present"),
]

NOMIRACL_MODELS = sorted(p.stem for p in (REPO / "conf/model").glob("nomiracl-*.yaml"))
LIVEQA_MODELS = sorted(p.stem for p in (REPO / "conf/model").glob("liveqa-*.yaml"))
PER_LANGUAGE = {"cataractbot": 8, "nomiracl": 40}


def _run(cmd: list[str], root: Path, env: dict[str, str]) -> str:
    out = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout + out.stderr


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    root = tmp_path_factory.mktemp("real-route") / "project"
    copy_project(REPO, root, tracking=True)  # MLflow holds the health metrics (issue #28)
    env = stage_env(root)
    git_init(root, env)
    for dataset, n in PER_LANGUAGE.items():
        # the documented command, with the mirror as the source
        _run(["parakh", "import-data", dataset, "--source", str(SHARED_DATA / dataset)], root, env)
        update_yaml(root / f"conf/dataset/{dataset}.yaml", per_language=n)
    judgments = SHARED_DATA / "liveqa_med_judgments" / "judgments.jsonl"
    point_source_at(root, upstream_repos(root.parent, judgments))
    _run(["parakh", "import-data", "liveqa_judgments"], root, env)  # upstream, no --source
    _run(["git", "add", "-A"], root, env)
    _run(["git", "commit", "-q", "-m", "import cataractbot, nomiracl, liveqa_judgments"], root, env)
    yield root, env


def _repro(root: Path, env: dict[str, str], **params: object) -> None:
    update_yaml(root / "params.yaml", **params)
    _run(["dvc", "repro"], root, env)


def _overall_order(leaderboard_md: Path) -> list[str]:
    """The model column of the markdown's Overall table, in its (ranked) order."""
    lines = leaderboard_md.read_text(encoding="utf-8").splitlines()
    overall = lines.index("## Overall")
    first = next(i for i in range(overall, len(lines)) if lines[i].startswith("|"))
    rows = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    header, body = rows[0], rows[2:]
    return [r[header.index("model")] for r in body]


def test_imported_cataractbot_gives_a_leaderboard(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    dvc_file = yaml.safe_load((root / "data/raw/cataractbot.dvc").read_text())
    assert dvc_file["outs"][0]["md5"].endswith(".dir")  # tracked by DVC with its checksum
    _repro(root, env, datasets=["cataractbot"], models=["extractive"], judge="reference")
    board = json.loads((root / "reports/cataractbot/reference/leaderboard.json").read_text())
    questions = read_jsonl(root / "data/processed/cataractbot/curate/questions.jsonl", Question)
    languages = {q.language for q in questions}
    assert set(board["languages"]) == languages
    counts = {lang: sum(q.language == lang for q in questions) for lang in languages}
    assert all(n <= PER_LANGUAGE["cataractbot"] for n in counts.values())
    overall = {
        c["metric"]: c
        for c in board["cells"]
        if c["model"] == "extractive" and c["dimension"] == "all"
    }
    assert overall["chrf"]["n"] + overall["chrf"]["errors"] == len(questions)
    assert overall["chrf"]["mean"] > 0
    status = run_command(["dvc", "status", "--json"], root, env)
    assert status.returncode == 0 and json.loads(status.stdout) == {}  # nothing left to run


def test_cataractbot_gets_the_health_metrics_from_the_smoke_judge(
    project: tuple[Path, dict[str, str]],
) -> None:
    """Issue #28 on real data: `rag_health_smoke` on the imported CataractBot."""
    root, env = project
    _repro(root, env, datasets=["cataractbot"], models=["extractive"], judge="rag_health_smoke")
    assert_health_report(root, env, "cataractbot", SCORED_BY_SMOKE)


def test_liveqa_answer_sources_are_scored_against_the_reference_answers(
    project: tuple[Path, dict[str, str]],
) -> None:
    root, env = project
    assert sorted(p.name for p in (root / "data/raw/liveqa_judgments").glob("*.dvc")) == [
        "QA-TestSet-LiveQA-Med-Qrels-2479-Answers.zip.dvc",
        "TREC-2017-LiveQA-Medical-Test-Questions-w-summaries.xml.dvc",
    ]
    _repro(
        root, env, datasets=["liveqa_judgments"], models=LIVEQA_MODELS, judge="reference",
        retriever="bm25",
    )  # fmt: skip
    processed = root / "data/processed/liveqa_judgments"
    questions = read_jsonl(processed / "curate/questions.jsonl", Question)
    assert len(questions) == 63 and all(q.reference_answers for q in questions)
    judged = [json.loads(line) for line in (processed / "curate/human_judgments.jsonl").open()]
    answered = {
        source: {j["question_id"] for j in judged if j["meta"]["answer_source"] == source}
        for source in {j["meta"]["answer_source"] for j in judged}
    }
    board = json.loads((root / "reports/liveqa_judgments/reference/leaderboard.json").read_text())
    chrf = {
        c["model"]: c for c in board["cells"] if c["metric"] == "chrf" and c["dimension"] == "all"
    }
    assert len(chrf) == len(LIVEQA_MODELS) == len(answered) == 9
    for model, cell in chrf.items():
        cfg = yaml.safe_load((root / f"conf/model/{model}.yaml").read_text())
        # one scored row per question the source answered, an error row for every other
        assert cell["n"] == len(answered[cfg["model_value"]]) and cell["mean"] > 0, model
        assert cell["errors"] == len(questions) - cell["n"], model
    ranked = _overall_order(root / "reports/liveqa_judgments/reference/leaderboard.md")
    assert ranked == sorted(chrf, key=lambda m: (-chrf[m]["mean"], m))
    status = run_command(["dvc", "status", "--json"], root, env)
    assert status.returncode == 0 and json.loads(status.stdout) == {}


def test_nomiracl_protocol_ranks_by_hallucination_rate_computed_as_the_paper_does(
    project: tuple[Path, dict[str, str]],
) -> None:
    """`parakh protocol nomiracl --run`, the user's route: the 11 stored outputs replayed, the
    leaderboard ranked by hallucination rate, lowest first, each rate FP / (FP + TN) on the
    non-relevant queries under the released rules (counted here from the replayed answers,
    invalid outputs in neither), and the summary's lenient rates counted the same way."""
    root, env = project
    assert len(NOMIRACL_MODELS) == 11
    _run(["parakh", "protocol", "nomiracl", "--run"], root, env)
    params = yaml.safe_load((root / "params.yaml").read_text())
    assert params["models"] == NOMIRACL_MODELS and params["judge"] == "nomiracl"
    processed = root / "data/processed/nomiracl"
    questions = read_jsonl(processed / "curate/questions.jsonl", Question)
    non_relevant = {q.id for q in questions if q.subset == "non_relevant"}
    assert non_relevant and {q.id for q in questions if q.subset == "relevant"}
    board = json.loads((root / "reports/nomiracl/nomiracl/leaderboard.json").read_text())
    assert board["primary_metric"] == "nomiracl_hallucination"
    rates = {
        c["model"]: c["mean"]
        for c in board["cells"]
        if c["metric"] == "nomiracl_hallucination" and c["dimension"] == "all"
    }
    assert sorted(rates) == NOMIRACL_MODELS
    disagreements = 0
    for model in NOMIRACL_MODELS:
        answers = read_jsonl(processed / f"generate/{model}.jsonl", Generation)
        assert {g.question_id for g in answers} == {q.id for q in questions}
        summary = json.loads((processed / f"judge/nomiracl/{model}.summary.json").read_text())
        assert summary["nomiracl_parsers"]["parser"] == "released"
        disagreements += summary["nomiracl_parsers"]["disagreements"]
        for parser, classify in (
            ("released", classify_released),
            ("lenient", classify_nomiracl_output),
        ):
            labels = {g.question_id: classify(g.response) for g in answers if g.status == "ok"}
            fp = sum(labels.get(q) == ANSWER_PRESENT for q in non_relevant)
            tn = sum(labels.get(q) == I_DONT_KNOW for q in non_relevant)
            if parser == "released":  # the leaderboard's figure: 4-decimal rows
                assert rates[model] == pytest.approx(fp / (fp + tn), abs=5e-5), model
            else:  # the other parser's rate, in the judge summary
                lenient = summary["nomiracl"]["all"]["other_parser"]["hallucination"]
                assert (lenient["numerator"], lenient["denominator"]) == (fp, fp + tn), model
    assert disagreements > 0  # the slice holds outputs the two parsers read differently
    ranked = _overall_order(root / "reports/nomiracl/nomiracl/leaderboard.md")
    assert ranked == sorted(NOMIRACL_MODELS, key=lambda m: (rates[m], m))
    assert rates[ranked[0]] < rates[ranked[-1]]
