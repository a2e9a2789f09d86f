"""Bad-input corpus, rows that do not cover the run (#16 items 2, 3 and 8): judge rows that miss
questions, languages, models or metrics, a key twice, a generation missing or twice, and
duplicates in or across the shards of a sharded run.

Each refusal names the file, the line or the key, and leaves nothing written; with
`aggregate.allow_partial=true` the same rows make a run whose every output says it is partial.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
import yaml

from parakh.config import compose
from parakh.io import write_jsonl
from parakh.scale.shard import shard_of
from parakh.schema import Generation, Question, Retrieval, RetrievedChunk
from parakh.stages import generate, judge
from tests.badinput.harness import assert_rejected, make_project, run_parakh, snapshot
from tests.report import synthetic_project as synth

OUTPUTS = ["data/processed", "reports"]
AGGREGATE = ["aggregate", "tracking.enabled=false", "aggregate.statistics.bootstrap_resamples=100"]
JUDGE_ROWS = "data/processed/demo/judge/smoke"


# --- aggregate: judge rows against questions x models x metrics (items 2 and 3) -------------


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _keep(path: Path, keep: Callable[[dict], bool]) -> None:
    """Rewrite a JSONL file with only the rows `keep` accepts, as they were written."""
    path.write_text("".join(line for line in _lines(path) if keep(json.loads(line))))


def _append(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + line)


def _row(root: Path, model: str, question: str, metric: str) -> str:
    return next(
        line
        for line in _lines(root / JUDGE_ROWS / f"{model}.jsonl")
        if (row := json.loads(line))["question_id"] == question and row["metric"] == metric
    )


def _first_100_rows(root: Path) -> list[str]:
    """100 of the 288 rows (3 models x 24 questions x 4 metrics): alpha's 96, beta's first 4."""
    (root / JUDGE_ROWS / "beta.jsonl").write_text(
        "".join(_lines(root / JUDGE_ROWS / "beta.jsonl")[:4])
    )
    (root / JUDGE_ROWS / "gamma.jsonl").write_text("")
    return [f"{JUDGE_ROWS}/beta.jsonl", f"{JUDGE_ROWS}/gamma.jsonl", "100 of 288", "(q01, beta, "]


def _language_gone(root: Path) -> list[str]:
    """beta has no row in Tamil (q02, q05, ...): the language would vanish from its row."""
    _keep(root / JUDGE_ROWS / "beta.jsonl", lambda row: row["language"] != "ta")
    return [f"{JUDGE_ROWS}/beta.jsonl", "beta: 32 of 96 missing", "(q02, beta, token_f1)"]


def _metric_gone(root: Path) -> list[str]:
    _keep(root / JUDGE_ROWS / "gamma.jsonl", lambda row: row["metric"] != "chrf")
    return [f"{JUDGE_ROWS}/gamma.jsonl", "gamma: 24 of 96 missing", "(q00, gamma, chrf)"]


def _question_gone_everywhere(root: Path) -> list[str]:
    """No model has q07: the questions file still says the run has it."""
    for model in synth.MODELS:
        _keep(root / JUDGE_ROWS / f"{model}.jsonl", lambda row: row["question_id"] != "q07")
    return ["questions.jsonl", "(q07, alpha, token_f1)", "alpha: 4 of 96", "gamma: 4 of 96"]


def _metric_never_judged(root: Path) -> list[str]:
    """The judge config scores rouge_l, but no judge rows have it (the rows are stale)."""
    judge_file = root / "conf" / "judge" / "smoke.yaml"
    config = yaml.safe_load(judge_file.read_text(encoding="utf-8"))
    config["reference_metrics"].append("rouge_l")
    judge_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    return [f"{JUDGE_ROWS}/alpha.jsonl", "(q00, alpha, rouge_l)", "5 metrics of judge 'smoke'"]


def _truncated_mid_file(root: Path) -> list[str]:
    """A judge run cut short: alpha's file ends after 58 rows, with no error in it."""
    path = root / JUDGE_ROWS / "alpha.jsonl"
    path.write_text("".join(_lines(path)[:58]))
    return [f"{JUDGE_ROWS}/alpha.jsonl", "alpha: 38 of 96 missing", "(q14, alpha, token_f1)"]


MISSING = [
    pytest.param(_first_100_rows, id="item2-partial-judge-rows"),
    pytest.param(_language_gone, id="item2-missing-language"),
    pytest.param(_metric_gone, id="item2-missing-metric-of-one-model"),
    pytest.param(_question_gone_everywhere, id="item2-question-missing-from-every-model"),
    pytest.param(_metric_never_judged, id="item2-judged-metric-without-rows"),
    pytest.param(_truncated_mid_file, id="item2-judge-file-cut-short"),
]


@pytest.mark.parametrize("damage", MISSING)
def test_missing_judge_rows_stop_aggregate(tmp_path, monkeypatch, capsys, damage) -> None:
    root = synth.make_project(tmp_path)
    names = damage(root)
    before = snapshot(root, OUTPUTS)
    outcome = run_parakh(root, AGGREGATE, monkeypatch, capsys)
    assert_rejected(
        outcome,
        names=[*names, "aggregate.allow_partial=true", "Re-run the judge stage"],
        before=before,
        after=snapshot(root, OUTPUTS),
    )
    assert not (root / "reports").exists()


def _duplicate_row(root: Path) -> list[str]:
    """alpha's first row again at the end (a judge run appended to its own file)."""
    path = root / JUDGE_ROWS / "alpha.jsonl"
    _append(path, _lines(path)[0])
    return [f"{JUDGE_ROWS}/alpha.jsonl", "(q00, alpha, factual_correctness)", "lines 1 and 97"]


def _duplicate_with_other_score(root: Path) -> list[str]:
    """The same key twice with different scores: which one the mean takes is not a choice."""
    path = root / JUDGE_ROWS / "beta.jsonl"
    row = json.loads(_row(root, "beta", "q03", "token_f1"))
    _append(path, json.dumps({**row, "score": 0.0}) + "\n")
    return [f"{JUDGE_ROWS}/beta.jsonl", "(q03, beta, token_f1)", "lines 15 and 97"]


def _unknown_question(root: Path) -> list[str]:
    """A row of a question the questions file does not have (another dataset's rows)."""
    row = json.loads(_row(root, "gamma", "q00", "chrf"))
    _append(root / JUDGE_ROWS / "gamma.jsonl", json.dumps({**row, "question_id": "q99"}) + "\n")
    return [f"{JUDGE_ROWS}/gamma.jsonl, line 97", "question 'q99'", "questions.jsonl"]


def _unjudged_metric(root: Path) -> list[str]:
    """A row of a metric the judge config does not score (another judge's rows mixed in)."""
    row = json.loads(_row(root, "alpha", "q04", "chrf"))
    _append(root / JUDGE_ROWS / "alpha.jsonl", json.dumps({**row, "metric": "rouge_l"}) + "\n")
    return [f"{JUDGE_ROWS}/alpha.jsonl, line 97", "metric 'rouge_l'", "judge 'smoke'"]


REFUSED_EVEN_IF_PARTIAL = [
    pytest.param(_duplicate_row, id="item3-duplicate-judge-row"),
    pytest.param(_duplicate_with_other_score, id="item3-duplicate-judge-row-other-score"),
    pytest.param(_unknown_question, id="item2-judge-row-of-unknown-question"),
    pytest.param(_unjudged_metric, id="item2-judge-row-of-unjudged-metric"),
]


@pytest.mark.parametrize("allow_partial", [False, True], ids=["strict", "allow-partial"])
@pytest.mark.parametrize("damage", REFUSED_EVEN_IF_PARTIAL)
def test_duplicate_or_foreign_judge_rows_stop_aggregate(
    tmp_path, monkeypatch, capsys, damage, allow_partial
) -> None:
    root = synth.make_project(tmp_path)
    names = damage(root)
    before = snapshot(root, OUTPUTS)
    args = [*AGGREGATE, f"aggregate.allow_partial={str(allow_partial).lower()}"]
    outcome = run_parakh(root, args, monkeypatch, capsys)
    assert_rejected(outcome, names=names, before=before, after=snapshot(root, OUTPUTS))


def test_item2_allow_partial_marks_every_page_and_metric(tmp_path, monkeypatch, capsys) -> None:
    """The rows of item2-partial-judge-rows, aggregated on purpose: every output says so."""
    root = synth.make_project(tmp_path)
    _first_100_rows(root)
    outcome = run_parakh(root, [*AGGREGATE, "aggregate.allow_partial=true"], monkeypatch, capsys)
    assert outcome.traceback is None and outcome.code == 0, outcome.message
    banner = "Partial run: 100 of 288 (question, model, metric) judge rows (188 missing: beta 92"
    assert banner in outcome.message
    reports = root / "reports" / "demo" / "smoke"
    for page in ("report.html", "answers.html"):
        assert f'<p class="warn" id="partial-run"><b>{banner}' in (reports / page).read_text()
    assert banner in (reports / "leaderboard.md").read_text()
    marker = {
        "rows": 100,
        "expected_rows": 288,
        "missing_rows": 188,
        "missing_by_model": {"beta": 92, "gamma": 96},
    }
    assert json.loads((reports / "leaderboard.json").read_text())["partial"] == marker
    assert json.loads((reports / "metrics.json").read_text())["partial_run"] == marker
    csv = (reports / "leaderboard.csv").read_text().splitlines()
    assert csv[0].endswith(",partial") and all(
        line.endswith(",100 of 288 rows") for line in csv[1:]
    )
    spec = json.loads((reports / "leaderboard.runspec.json").read_text())
    assert spec["config"]["aggregate"]["allow_partial"] is True


def test_item2_complete_run_carries_no_partial_marker(tmp_path, monkeypatch, capsys) -> None:
    """The control: the untouched synthetic project aggregates, and nothing says partial."""
    root = synth.make_project(tmp_path)
    outcome = run_parakh(root, AGGREGATE, monkeypatch, capsys)
    assert outcome.traceback is None and outcome.code == 0, outcome.message
    reports = root / "reports" / "demo" / "smoke"
    for path in reports.rglob("*"):
        if path.suffix in (".html", ".md", ".json", ".csv"):
            text = path.read_text().lower().replace("allow_partial", "")  # the setting, false
            assert "partial" not in text, path
    spec = json.loads((reports / "leaderboard.runspec.json").read_text())
    assert spec["config"]["aggregate"]["allow_partial"] is False


# --- judge: the answers against the curated questions (items 3 and 8) -----------------------

QUESTIONS = [
    Question(
        id=f"q{i}",
        text=f"Question {i}?",
        language="en",
        reference_answers=[f"Answer {i}."],
        asked_at=date(2024, 8, 1),
    )
    for i in range(6)
]
GENERATIONS = "data/processed/demo/generate/extractive.jsonl"
JUDGE = ["judge", "dataset=demo", "model=extractive", "judge=reference", "progress=false"]


def _judge_project(root: Path) -> Path:
    """Curated questions, their retrieved chunks and one answer each from `extractive`."""
    make_project(root)
    chunk = {"document_id": "raw:a", "kind": "raw", "score": 1.0}
    retrievals = [
        Retrieval(
            question_id=q.id,
            raw_chunks=[RetrievedChunk(chunk_id="c", text=f"Answer {q.id}.", **chunk)],
            kb_update_chunks=[],
        )
        for q in QUESTIONS
    ]
    answers = [
        Generation(question_id=q.id, model="extractive", status="ok", response=f"Answer {i}.")
        for i, q in enumerate(QUESTIONS)
    ]
    processed = root / "data" / "processed" / "demo"
    write_jsonl(processed / "curate" / "questions.jsonl", QUESTIONS)
    write_jsonl(processed / "index" / "retrieval.jsonl", retrievals)
    write_jsonl(root / GENERATIONS, answers)
    return root


def _drop_answer(path: Path) -> list[str]:
    """The answer to q4 is gone (was: KeyError: 'q4')."""
    _keep(path, lambda row: row["question_id"] != "q4")
    return [GENERATIONS, "no answer for 1 of 6 questions", "'q4'", "questions.jsonl"]


def _drop_answers(path: Path) -> list[str]:
    _keep(path, lambda row: row["question_id"] in ("q0", "q1"))
    return [GENERATIONS, "no answer for 4 of 6", "'q2', 'q3', 'q4', 'q5'"]


def _no_answers_file(path: Path) -> list[str]:
    path.unlink()
    return [GENERATIONS, "no answers to judge", "re-run the generate stage"]


def _answer_twice(path: Path) -> list[str]:
    """q1 answered twice, differently: the judge kept the last and dropped the first."""
    row = json.loads(_lines(path)[1])
    _append(path, json.dumps({**row, "response": "Another answer."}) + "\n")
    return [GENERATIONS, "question 'q1' has 2 rows (lines 2 and 7)"]


def _answers_of_other_questions(path: Path) -> list[str]:
    row = json.loads(_lines(path)[0])
    _append(path, json.dumps({**row, "question_id": "elsewhere-1"}) + "\n")
    return [f"{GENERATIONS}, line 7", "question 'elsewhere-1'", "questions.jsonl"]


@pytest.mark.parametrize(
    ("damage", "shard"),
    [
        pytest.param(_drop_answer, [], id="item8-missing-generation-row"),
        pytest.param(_drop_answers, [], id="item8-missing-generation-rows"),
        pytest.param(_no_answers_file, [], id="item8-missing-generations-file"),
        # a shard judges its own questions, but the answers file is the whole run's
        pytest.param(_drop_answer, ["shard=0", "num_shards=2"], id="item8-missing-row-shard"),
        pytest.param(_answer_twice, [], id="item3-duplicate-generation-row"),
        pytest.param(_answers_of_other_questions, [], id="item3-generation-of-unknown-question"),
    ],
)
def test_judge_refuses_answers_that_do_not_cover_the_questions(
    tmp_path, monkeypatch, capsys, damage, shard
) -> None:
    root = _judge_project(tmp_path)
    names = damage(root / GENERATIONS)
    before = snapshot(root, OUTPUTS)
    outcome = run_parakh(root, [*JUDGE, *shard], monkeypatch, capsys)
    assert_rejected(outcome, names=names, before=before, after=snapshot(root, OUTPUTS))
    assert not (root / "data/processed/demo/judge").exists()


# --- merge-shards: a key once in the union of the shards (items 3 and 8) --------------------

SHARDS = 2
SHARD_GENERATIONS = "data/processed/demo/shards/generate"
SHARD_JUDGMENTS = "data/processed/demo/shards/judge/reference"


@pytest.fixture(scope="module")
def sharded_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`_judge_project`'s inputs generated and judged in two shards, not yet merged."""
    root = _judge_project(tmp_path_factory.mktemp("sharded"))
    (root / GENERATIONS).unlink()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PARAKH_ROOT", str(root))
        common = ["dataset=demo", "model=extractive", "judge=reference", "progress=false"]
        for i in range(SHARDS):
            generate.main_task(compose([*common, f"shard={i}", f"num_shards={SHARDS}"]))
        generate.merge_task(compose([*common, f"num_shards={SHARDS}"]))
        for i in range(SHARDS):
            judge.main_task(compose([*common, f"shard={i}", f"num_shards={SHARDS}"]))
    return root


def _shard(folder: str, question: str, other: bool = False) -> str:
    """The shard file holding `question`'s rows (`other`: the shard that does not)."""
    index = shard_of(question, SHARDS) if not other else 1 - shard_of(question, SHARDS)
    return f"{folder}/extractive.shard-{index}-of-{SHARDS}.jsonl"


def _twice_in_shard(root: Path) -> tuple[str, list[str]]:
    path = root / _shard(SHARD_GENERATIONS, "q0")
    first = _lines(path)[0]
    question = json.loads(first)["question_id"]
    _append(path, first)
    n = len(_lines(path))
    return "generate", [
        _shard(SHARD_GENERATIONS, "q0"),
        f"'{question}' has 2 rows (lines 1 and {n})",
    ]


def _across_shards(root: Path) -> tuple[str, list[str]]:
    """The row of q0 also in the other shard (shards split by hand, or copied together)."""
    line = _lines(root / _shard(SHARD_GENERATIONS, "q0"))[0]
    question = json.loads(line)["question_id"]
    other = root / _shard(SHARD_GENERATIONS, question, other=True)
    _append(other, line)
    where = f"{_shard(SHARD_GENERATIONS, question, other=True)}, line {len(_lines(other))}"
    return "generate", [where, f"question '{question}'", "the shards overlap"]


def _judge_row_twice_in_shard(root: Path) -> tuple[str, list[str]]:
    path = root / _shard(SHARD_JUDGMENTS, "q0")
    first = json.loads(_lines(path)[0])
    _append(path, _lines(path)[0])
    key = f"({first['question_id']}, {first['metric']})"
    return "judge", [_shard(SHARD_JUDGMENTS, "q0"), key, f"lines 1 and {len(_lines(path))}"]


def _judge_row_missing_in_shard(root: Path) -> tuple[str, list[str]]:
    path = root / _shard(SHARD_JUDGMENTS, "q0")
    lines = _lines(path)
    gone = json.loads(lines[-1])
    path.write_text("".join(lines[:-1]))
    key = f"({gone['question_id']}, {gone['metric']})"
    return "judge", [_shard(SHARD_JUDGMENTS, "q0"), f"no row for (question, metric) {key}"]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(_twice_in_shard, id="item3-duplicate-in-shard"),
        pytest.param(_across_shards, id="item3-duplicate-across-shards"),
        pytest.param(_judge_row_twice_in_shard, id="item3-duplicate-judge-row-in-shard"),
        pytest.param(_judge_row_missing_in_shard, id="item8-judge-row-missing-in-shard"),
    ],
)
def test_merge_shards_refuses_a_key_twice_or_missing(
    sharded_project, tmp_path, monkeypatch, capsys, damage
) -> None:
    root = tmp_path / "project"
    shutil.copytree(sharded_project, root)
    stage, names = damage(root)
    before = snapshot(root, OUTPUTS)
    args = ["merge-shards", stage, "dataset=demo", "model=extractive", "judge=reference"]
    outcome = run_parakh(root, [*args, f"num_shards={SHARDS}"], monkeypatch, capsys)
    assert_rejected(outcome, names=names, before=before, after=snapshot(root, OUTPUTS))
