"""MLflow's own pages show Parakh's results, on a real `mlflow server` with `tracking.genai=true`:
each judged answer is a trace (question and retrieved context in, answer out) with one
assessment per metric and the reference as an expectation, in its language run; the questions
are an evaluation dataset; and, in headless Chromium, the runs page filtered by
`tags.language = 'hi'` and sorted by a metric lists one run per model (Hindi's leaderboard), and
a trace opens showing its question, answer and assessments. The browser tests skip without a
Chromium binary (Debian: `apt-get install -y chromium`)."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from tests.report import synthetic_project as synth
from tests.report.test_browser import BINARIES, FLAGS
from tests.tracking.conftest import experiment_of, run_parakh

from parakh.tracking.client import PARAMS_CUT
from parakh.tracking.params import CUT_MARKER, PARAMS_FILE

pytestmark = [pytest.mark.slow, pytest.mark.server]
LONG_DESCRIPTION = "d" * 7000  # over MLflow's 6,000 characters a param


@pytest.fixture(scope="module")
def genai_project(tmp_path_factory: pytest.TempPathFactory, mlflow_server: str) -> Path:
    """The synthetic project logged by aggregate with the GenAI pages on."""
    root = synth.make_project(tmp_path_factory.mktemp("genai") / "project")
    overrides = ["tracking.genai=true", f"dataset.description={LONG_DESCRIPTION}"]
    run_parakh(
        ["parakh.stages.aggregate", f"tracking.experiment={experiment_of(root)}", *overrides],
        root,
        mlflow_server,
    )
    return root


@pytest.fixture(scope="module")
def client(mlflow_server: str) -> Any:
    from mlflow.tracking import MlflowClient

    return MlflowClient(mlflow_server)


def _experiment_id(client: Any, root: Path) -> str:
    return str(client.get_experiment_by_name(experiment_of(root)).experiment_id)


def _trace(client: Any, experiment: str, model: str, question: str) -> Any:
    (found,) = client.search_traces(
        locations=[experiment],
        filter_string=f"tags.model = '{model}' and tags.question_id = '{question}'",
    )
    return found


def test_each_judged_answer_is_a_trace_with_one_assessment_per_metric(
    genai_project: Path, client: Any, mlflow_server: str, tmp_path: Path
) -> None:
    experiment = _experiment_id(client, genai_project)
    for model in synth.MODELS:
        traces = client.search_traces(
            locations=[experiment], filter_string=f"tags.model = '{model}'", max_results=100
        )
        assert len(traces) == synth.N_QUESTIONS
    trace = _trace(client, experiment, "alpha", "q01")
    (span,) = trace.data.spans
    assert span.inputs == {"question": "Question 1 <b>about</b> eye drops?", "context": []}
    assert span.outputs == {"answer": "alpha answers q01 <script>alert(1)</script>"}
    language_run = client.get_run(trace.info.trace_metadata["mlflow.sourceRun"])
    assert (language_run.data.tags["model"], language_run.data.tags["language"]) == ("alpha", "hi")
    judge_model = language_run.data.params["judge.model.name"]
    by_name = {a.name: a for a in trace.info.assessments}
    assert set(by_name) == {*synth.METRICS, "expected_response"}
    assert by_name["expected_response"].value == "Reference answer 1."
    rows = {r.metric: r for r in synth.judgments("alpha") if r.question_id == "q01"}
    for metric, row in rows.items():
        assessment = by_name[metric]
        if metric in synth.JUDGE_METRICS["reference_metrics"]:
            assert (assessment.source.source_type, assessment.source.source_id) == (
                "CODE",
                f"parakh.{metric}",
            )
        else:
            assert (assessment.source.source_type, assessment.source.source_id) == (
                "LLM_JUDGE",
                judge_model,
            )
        if row.status == "ok":
            assert (assessment.value, assessment.rationale) == (row.score, row.justification)
        else:  # a failure is a Feedback with its reason, never a score
            assert assessment.value is None
            assert assessment.error.error_code == row.status.upper()
    failed = [
        a
        for t in client.search_traces(locations=[experiment], max_results=200)
        for a in t.info.assessments
        if getattr(a, "error", None) is not None
    ]
    assert {a.error.error_code for a in failed} == {"INVALID", "ERROR"}
    # the model's `all` run lists every answer of the model; the dataset is on the Datasets page
    all_run = client.search_runs(
        [experiment], filter_string="tags.model = 'alpha' and tags.language = 'all'"
    )[0]
    linked = client.search_traces(
        locations=[experiment], run_id=all_run.info.run_id, max_results=100
    )
    assert len(linked) == synth.N_QUESTIONS
    (dataset,) = client.search_datasets([experiment])
    assert dataset.name.startswith("demo-")
    assert json.loads(dataset.profile)["num_records"] == synth.N_QUESTIONS
    # a param over MLflow's limit: cut with a marker, named in a tag, whole in params.json
    sweep = client.search_runs([experiment], filter_string="tags.`parakh.level` = 'sweep'")[0]
    assert sweep.data.params["dataset.description"].endswith(CUT_MARKER)
    assert "dataset.description" in sweep.data.tags[PARAMS_CUT].split(",")
    whole = client.download_artifacts(sweep.info.run_id, PARAMS_FILE, str(tmp_path))
    assert json.loads(Path(whole).read_text())["dataset"]["description"] == LONG_DESCRIPTION


@pytest.fixture(scope="module")
def chromium() -> str:
    for name in BINARIES:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium binary found (apt-get install -y chromium)")


def _page_text(chromium: str, url: str, profile: Path) -> tuple[str, str]:
    """The rendered DOM of `url` and its visible text, cells joined by `|`."""
    args = [
        chromium,
        *FLAGS,
        f"--user-data-dir={profile}",
        "--window-size=1600,1000",
        "--virtual-time-budget=60000",
        "--dump-dom",
        url,
    ]
    out = subprocess.run(args, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    dom = out.stdout
    text = re.sub(r"<style.*?</style>|<script.*?</script>", "", dom, flags=re.S)
    cells = [html.unescape(cell.strip()) for cell in re.split(r"<[^>]+>", text)]
    return dom, "|" + "|".join(cell for cell in cells if cell) + "|"


def test_the_runs_page_filtered_by_language_and_sorted_is_its_leaderboard(
    genai_project: Path, client: Any, mlflow_server: str, chromium: str, tmp_path: Path
) -> None:
    """MLflow's runs page takes the filter and sort in its URL; with both set it lists the
    matching runs flat (not under their model runs), in metric order."""
    experiment = _experiment_id(client, genai_project)
    search, order = quote("tags.language = 'hi'"), quote("metrics.`factual_correctness`")
    query = f"searchFilter={search}&orderByKey={order}&orderByAsc=false"
    _, text = _page_text(
        chromium, f"{mlflow_server}/#/experiments/{experiment}/runs?{query}", tmp_path / "p"
    )
    assert "|3|matching runs|" in text, text[:3000]
    shown = re.findall(r"\|([a-z]+ · hi · demo · smoke)\|", text)
    runs = client.search_runs(
        [experiment],
        filter_string="tags.language = 'hi'",
        order_by=["metrics.factual_correctness DESC"],
    )
    assert sorted(shown) == sorted(r.info.run_name for r in runs), shown
    scores = {r.info.run_name: r.data.metrics["factual_correctness"] for r in runs}
    assert [scores[name] for name in shown] == sorted(scores.values(), reverse=True)
    assert shown[0] == "alpha · hi · demo · smoke"  # alpha is the best model, in Hindi too


def test_an_evaluation_item_shows_its_question_answer_and_assessments(
    genai_project: Path, client: Any, mlflow_server: str, chromium: str, tmp_path: Path
) -> None:
    experiment = _experiment_id(client, genai_project)
    trace = _trace(client, experiment, "gamma", "q19")
    url = (
        f"{mlflow_server}/#/experiments/{experiment}/traces"
        f"?selectedEvaluationId={trace.info.trace_id}"
    )
    dom, text = _page_text(chromium, url, tmp_path / "p")
    assert "|Inputs / Outputs|" in text, text[-3000:]  # the trace's drawer is open
    drawer = text[text.rindex("|Spans|") :]
    assert "|question|Question 19 <b>about</b> eye drops?|" in drawer, drawer[:2000]
    assert "|answer|gamma answers q19 <script>alert(1)</script>|" in drawer
    count = re.search(
        r'data-component-id="shared\.model-trace-explorer\.assessments-pane-toggle-count"'
        r"(?:(?!</div>).)*?>(\d+)<",
        dom,
        flags=re.S,
    )
    assert count and int(count[1]) == len(trace.info.assessments) == 5, count
    # the evaluation items table: a column per assessment, the reference in this item's row
    header = text[text.index("|Tags|") :]
    for name in ("chrf", "coherence", "expected_response", "factual_correctness", "token_f1"):
        assert f"|{name}|" in header[:300], header[:300]
    # each row: question, answer, then its assessments: the chrf score, the reference
    rows = re.findall(
        r"\|Question (\d+) <b>about</b> eye drops\?\|(\w+) answers q\d+ (.*?)(?=\|Question )", text
    )
    assert len(rows) >= 10, text[:3000]
    for number, model, rest in rows[:10]:
        assert f"|Reference answer {int(number)}.|" in rest, rest
        shown = _trace(client, experiment, model, f"q{int(number):02d}")
        chrf = next(a.value for a in shown.info.assessments if a.name == "chrf")
        assert f"|{chrf:.2f}|" in rest, (chrf, rest)
