"""`parakh judges`: a dataset's judges ordered by agreement with the human grades, beside an
answer-length-only baseline computed over the same graded answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy.stats import spearmanr

from parakh.config import compose
from parakh.errors import ConfigError
from parakh.io import write_json, write_jsonl
from parakh.report.aggregate_result import compute
from parakh.report.inputs import AggregateInputs
from parakh.schema import Generation, HumanJudgment, Judgment
from tests.commands.cli import run_cli
from tests.conftest import REPO

DATASET = "graded"
MODELS = ["a", "b", "c"]
QUESTIONS = [f"q{i}" for i in range(12)]


def _text(i: int, m: int) -> str:
    if m == 2 and i == 3:  # c gives b's answer: one grade of that text pairs with both
        return _text(3, 1)
    return f"answer {i}-{m} " + "x" * (5 * ((7 * i + 3 * m) % 11))


def _grade(i: int, m: int) -> float:
    return float(1 + (i + m) % 4)


def _generations() -> dict[str, list[Generation]]:
    return {
        model: [
            Generation(question_id=q, model=model, status="ok", response=_text(i, m))
            for i, q in enumerate(QUESTIONS)
        ]
        for m, model in enumerate(MODELS)
    }


def _graded() -> list[HumanJudgment]:
    rows = []
    for i, q in enumerate(QUESTIONS):
        for m in range(2):  # c's answers are graded only where it repeats b's text
            rows.append((q, _text(i, m), _grade(i, m)))
    rows.append(("q0", _text(0, 0), 3.0))  # a second rater of one answer
    rows.append(("q5", "an answer no model gave", 4.0))
    return [
        HumanJudgment(
            id=f"h{n}", question_id=q, answer_id=f"x{n}", answer=text, grade=grade,
            scale_min=1, scale_max=4,
        )
        for n, (q, text, grade) in enumerate(rows)
    ]  # fmt: skip


def _score(judge: str, i: int, m: int) -> float:
    if judge == "close":  # follows the grade, ties broken by question
        return _grade(i, m) / 4 - 0.01 * ((i * 5) % 3)
    return ((5 * i + 3 * m) % 7) / 7  # unrelated to the grade


def _judgments(judge: str) -> dict[str, list[Judgment]]:
    return {
        model: [
            Judgment(
                question_id=q, model=model, judge=judge, metric="token_f1", language="en",
                status="ok", score=_score(judge, i, m),
            )
            for i, q in enumerate(QUESTIONS)
        ]
        for m, model in enumerate(MODELS)
    }  # fmt: skip


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cfg = compose(["judge=reference", "aggregate.statistics.bootstrap_resamples=200"])
    monkeypatch.setenv("PARAKH_ROOT", str(tmp_path))  # the project whose reports are read
    processed = tmp_path / "data/processed" / DATASET
    generations = _generations()
    for model, rows in generations.items():
        write_jsonl(processed / "generate" / f"{model}.jsonl", rows)
    write_jsonl(processed / "curate" / "human_judgments.jsonl", _graded())
    for judge in ("loose", "close", "ungraded"):
        inputs = AggregateInputs(
            judge, MODELS, _judgments(judge), generations=generations,
            answer_grades=[] if judge == "ungraded" else _graded(),
        )  # fmt: skip
        board = compute(cfg, inputs).document()
        write_json(tmp_path / "reports" / DATASET / judge / "leaderboard.json", board)
    return tmp_path


def _expected_length_spearman() -> tuple[float, int]:
    """scipy's Spearman of (answer length, grade) over every (grade, model answer) pair of
    identical text, as aggregate pairs curated grades."""
    lengths, grades = [], []
    for rows in _generations().values():
        for g in rows:
            for human in _graded():
                if (human.question_id, human.answer) == (g.question_id, g.response):
                    assert g.response is not None
                    lengths.append(len(g.response))
                    grades.append(human.grade)
    return float(spearmanr(lengths, grades).statistic), len(lengths)


def test_judges_ordered_by_spearman_beside_the_length_baseline(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["judges", DATASET], capsys)
    assert (code, err) == (0, "")
    table = json.loads((project / "reports" / DATASET / "judges.json").read_text())
    assert table["judges"] == ["close", "loose"]  # the leaderboard with no grades is left out
    rows = [(r["judge"], r["metric"]) for r in table["rows"]]
    assert rows == [("close", "token_f1"), ("loose", "token_f1")]
    spearmans = [r["spearman"] for r in table["rows"]]
    assert spearmans[0] > spearmans[1]

    expected, n_pairs = _expected_length_spearman()
    [baseline] = table["baselines"]
    assert baseline["key"] == "answers" and baseline["n_pairs"] == n_pairs
    assert baseline["spearman"] == pytest.approx(expected, abs=1e-9)
    low, high = baseline["intervals"]["spearman"]
    assert low <= baseline["spearman"] <= high
    # the same graded answers are the judges' pairs
    assert all(r["n_pairs"] == n_pairs for r in table["rows"])

    close = table["rows"][0]
    assert close["beats_length"] is (close["intervals"]["spearman"][0] > expected)
    assert close["beats_length"] is True
    assert table["rows"][1]["beats_length"] is False

    text = (project / "reports" / DATASET / "judges.md").read_text()
    assert text in out and "| **answer length (baseline)** | characters | answers |" in text
    lines = [line for line in text.splitlines() if line.startswith("| ")][1:]
    assert lines[0].startswith("| close | token_f1 |") and lines[0].endswith("| yes |")


def test_a_judge_without_human_agreement_says_what_to_run(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(["judges", DATASET, "--judges", "close,ungraded"], capsys)
    assert code != 0 and "judge 'ungraded' has no judge-human agreement" in err
    assert "run `dvc repro` with judge=ungraded on a dataset with human grades" in err


def test_no_leaderboard_with_agreement_says_what_to_run(project: Path) -> None:
    from parakh.commands.judges import judges_table

    with pytest.raises(ConfigError, match=r"no leaderboard under .*run `dvc repro` with judge="):
        judges_table("unknown_dataset")
    for judge in ("close", "loose"):
        (project / "reports" / DATASET / judge / "leaderboard.json").unlink()
    with pytest.raises(ConfigError, match=r"judge-human agreement \(judges: ungraded\).*dvc repro"):
        judges_table(DATASET)
    with pytest.raises(ConfigError, match=r"no leaderboard for dataset .* judge 'smoke'"):
        judges_table(DATASET, ["smoke"])


def test_a_judge_on_a_sample_is_compared_with_length_on_its_own_answers(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An LLM judge that scored only some questions (the rest `skipped`) meets fewer graded
    answers: its length baseline is over exactly those, not over every graded answer."""
    sampled = {f"q{i}" for i in range(6)}
    judgments = {
        model: [
            r
            if r.question_id in sampled
            else r.model_copy(update={"status": "skipped", "score": None})
            for r in rows
        ]
        for model, rows in _judgments("close").items()
    }
    with monkeypatch.context() as conf:
        conf.setenv("PARAKH_ROOT", str(REPO))  # this checkout's conf/; reports: the project
        cfg = compose(["judge=reference", "aggregate.statistics.bootstrap_resamples=200"])
    inputs = AggregateInputs(
        "sampled", MODELS, judgments, generations=_generations(), answer_grades=_graded()
    )
    write_json(
        project / "reports" / DATASET / "sampled" / "leaderboard.json",
        compute(cfg, inputs).document(),
    )
    code, _, err = run_cli(["judges", DATASET], capsys)
    assert (code, err) == (0, "")
    table = json.loads((project / "reports" / DATASET / "judges.json").read_text())
    lengths, grades = [], []
    for rows in _generations().values():
        for g in rows:
            for human in _graded():
                if g.question_id in sampled and (human.question_id, human.answer) == (
                    g.question_id,
                    g.response,
                ):
                    lengths.append(len(g.response or ""))
                    grades.append(human.grade)
    expected = float(spearmanr(lengths, grades).statistic)
    row = next(r for r in table["rows"] if r["judge"] == "sampled")
    assert (
        row["n_pairs"]
        == len(lengths)
        < next(r for r in table["rows"] if r["judge"] == "close")["n_pairs"]
    )
    own = next(b for b in table["baselines"] if b["key"] == row["length_baseline"])
    assert own["key"] == f"answers, {len(lengths)} pairs" and own["n_pairs"] == len(lengths)
    assert own["spearman"] == pytest.approx(expected, abs=1e-9)
    assert len(table["baselines"]) == 2  # every graded answer (close, loose) and the sample's


def test_a_study_names_its_judges_without_agreement_under_the_table(project: Path) -> None:
    from parakh.commands.judges import judges_table, render

    table = judges_table(DATASET, ["close", "ungraded"], allow_unscored=True)
    assert table["judges"] == ["close"] and table["without_agreement"] == ["ungraded"]
    assert "No judge-human agreement for ungraded" in render(table)
    with pytest.raises(ConfigError, match=r"judges: ungraded\) has judge-human agreement"):
        judges_table(DATASET, ["ungraded"], allow_unscored=True)
