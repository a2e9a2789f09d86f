"""generation.samples: k answers per question, each cached and judged; aggregate averages a
question's samples first and its bootstrap resamples questions, then samples within each."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
import pytest
from tests.judging.judge_files import judged
from tests.report.judge_columns import judge_columns

from parakh.backends.cache import ResponseCache
from parakh.backends.scripted import ScriptedBackend
from parakh.config import compose
from parakh.config.model import ScriptedModel
from parakh.errors import InputError
from parakh.hashing import sha256_obj
from parakh.report.html import leaderboard_section
from parakh.report.leaderboard import Settings, build_leaderboard
from parakh.schema import SCORE_DECIMALS, Generation, Judgment, Question
from parakh.stages import generate, judge
from parakh.stats.bootstrap import derive_seed

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
N_QUESTIONS, SAMPLES, RESAMPLES, SEED = 12, 3, 400, 7
MODEL = "extractive"  # the rows name the configured model (its scripted answers come first)


def _questions() -> list[Question]:
    return [
        Question(
            id=f"q{i:02d}",
            text=f"Question {i}?",
            language="en",
            reference_answers=[" ".join(WORDS)],
            asked_at=date(2024, 1, 1),
        )
        for i in range(N_QUESTIONS)
    ]


def _answer(question: int, sample: int) -> str:
    """A share of the reference's words that differs by question, and around it by sample
    (seed): sample 0 the question's own share, samples 1 and 2 two words more and fewer."""
    return " ".join(WORDS[: 3 + question % 4 + (0, 2, -2)[sample]])


def _scripted() -> ScriptedModel:
    responses = {
        generate.sample_key(f"q{i:02d}", s): _answer(i, s)
        for i in range(N_QUESTIONS)
        for s in range(SAMPLES)
    }
    return ScriptedModel(name="m", backend="scripted", responses=responses)


def _generated(tmp_path: Path, samples: int) -> list[Generation]:
    cfg = compose(["judge=reference", f"generation.samples={samples}"])
    backend = ScriptedBackend(_scripted())
    cache = ResponseCache(tmp_path / f"cache{samples}.sqlite")
    progress = tmp_path / f"p{samples}.jsonl"
    return generate.run(cfg, _questions(), [], backend, cache, progress).generations


def _judged(tmp_path: Path, samples: int) -> list[Judgment]:
    cfg = compose(["judge=reference", f"generation.samples={samples}"])
    answers = _generated(tmp_path, samples)
    return judged(cfg, _questions(), answers, [], tmp_path / f"j{samples}.jsonl")


def test_each_sample_is_asked_with_its_own_seed_and_cache_key(tmp_path: Path) -> None:
    rows = _generated(tmp_path, SAMPLES)
    assert [(g.question_id, g.sample) for g in rows[:4]] == [
        ("q00", 0), ("q00", 1), ("q00", 2), ("q01", 0)
    ]  # fmt: skip
    assert rows[4].response == _answer(1, 1)
    assert len({g.request_hash for g in rows}) == len(rows)
    assert "sample" not in rows[0].model_dump(mode="json")  # sample 0 rows as before samples
    assert rows[1].model_dump(mode="json")["sample"] == 1


def test_the_judge_scores_every_sample_and_needs_every_one(tmp_path: Path) -> None:
    rows = _judged(tmp_path, SAMPLES)
    assert len(rows) == N_QUESTIONS * SAMPLES * 4
    assert {r.sample for r in rows} == {0, 1, 2}
    answers = tmp_path / "missing.jsonl"
    answers.write_text(
        "".join(g.model_dump_json() + "\n" for g in _generated(tmp_path, SAMPLES)[:-1])
    )
    questions = tmp_path / "questions.jsonl"
    questions.write_text("".join(q.model_dump_json() + "\n" for q in _questions()))
    with pytest.raises(InputError, match=r"\(q11, sample 2\)"):
        judge.read_generations(answers, questions, SAMPLES)


def _two_level_interval(scores: np.ndarray, seed: int) -> tuple[float, float]:
    """Questions drawn with replacement, then each drawn question's samples with replacement,
    from the seeds docs/statistics.md gives; the mean of the drawn questions' sample means."""
    n, k = scores.shape
    questions = np.random.Generator(np.random.PCG64(seed)).integers(0, n, size=(RESAMPLES, n))
    within = np.random.Generator(np.random.PCG64(derive_seed(seed, "samples")))
    picks = within.integers(0, k, size=(RESAMPLES, n, k))
    means = scores[questions[:, :, None], picks].mean(axis=(1, 2))
    low, high = np.quantile(means, [0.025, 0.975])
    return float(low), float(high)


def test_interval_is_the_two_level_bootstrap_and_wider_than_one_sample(tmp_path: Path) -> None:
    settings = Settings(seed=SEED, resamples=RESAMPLES)
    sampled = _judged(tmp_path, SAMPLES)
    single = _judged(tmp_path, 1)
    cells = {}
    for name, rows in (("sampled", sampled), ("single", single)):
        board = build_leaderboard(judge_columns(rows), [MODEL], {}, settings=settings)
        cells[name] = board.get(MODEL, "token_f1")
    scores = np.full((N_QUESTIONS, SAMPLES), np.nan)
    for r in sampled:
        if r.metric == "token_f1":
            scores[int(r.question_id[1:]), r.sample] = round(r.score or 0.0, SCORE_DECIMALS)
    ids = [f"q{i:02d}" for i in range(N_QUESTIONS)]
    seed = derive_seed(SEED, "items", sha256_obj(ids))
    low, high = _two_level_interval(scores, seed)
    two_level, one = cells["sampled"], cells["single"]
    assert two_level is not None and one is not None
    assert two_level.mean == pytest.approx(scores.mean())
    assert (two_level.ci_low, two_level.ci_high) == pytest.approx((low, high), abs=1e-12)
    assert one.ci_low is not None and one.ci_high is not None
    assert two_level.ci_high - two_level.ci_low > one.ci_high - one.ci_low
    assert two_level.n == N_QUESTIONS


def test_run_to_run_spread_is_the_share_of_questions_whose_samples_disagree(
    tmp_path: Path,
) -> None:
    rows = _judged(tmp_path, SAMPLES)
    board = build_leaderboard(judge_columns(rows), [MODEL], {}, settings=Settings(resamples=20))
    scores: dict[str, set[float | None]] = {}
    for r in rows:
        if r.metric == "token_f1":
            scores.setdefault(r.question_id, set()).add(r.score)
    disagree = sum(len(s) > 1 for s in scores.values()) / N_QUESTIONS
    assert board.sample_spread[MODEL]["token_f1"] == pytest.approx(disagree)
    shown = leaderboard_section(board, "token_f1")
    assert f"{MODEL} {100 * disagree:.0f}%" in shown and 'id="sample-spread"' in shown
    single = build_leaderboard(judge_columns(_judged(tmp_path, 1)), [MODEL], {})
    assert single.sample_spread == {}
    assert "sample-spread" not in leaderboard_section(single, "token_f1")
