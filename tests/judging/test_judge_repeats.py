"""`judge.repeats`: one judge model asked k times per item, seeds seed..seed+k-1, its votes
combined by mean and their agreement reported as the judge's self-consistency."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.backends.base import BlockingBackend, ChatRequest, Completion
from parakh.backends.cache import ResponseCache
from parakh.config import compose
from parakh.config.model import ModelConfig
from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError
from parakh.schema import Generation, Question
from parakh.stages import judge
from tests.judging.judge_files import judged

QUESTIONS = [
    Question(
        id="q1", text="When can I bathe?", language="en", reference_answers=["After 10 days."]
    ),
    Question(id="q2", text="क्या मैं टीवी देख सकता हूँ?", language="hi", reference_answers=["हाँ।"]),
]
ANSWERS = [
    Generation(question_id=q.id, model="answerer", status="ok", response="ok") for q in QUESTIONS
]
# q1's third ask (seed 2) scores 1, every other ask 2
SCORES = {("q1", 2): 1}


class SeededJudge(BlockingBackend):
    """A judge whose verdict depends on its seed, as a sampled model's does; counts its calls."""

    calls = 0

    def complete(self, request: ChatRequest) -> Completion:
        SeededJudge.calls += 1
        question = request.key.split("::")[0]
        score = SCORES.get((question, self.cfg.sampling.seed), 2)
        return Completion(text=json.dumps({"Score": score, "Justification": f"ask {score}"}))


def _factory(model: ModelConfig) -> SeededJudge:
    return SeededJudge(model)


def _cfg(repeats: int) -> ParakhConfig:
    cfg = compose(
        [
            "judge=smoke",
            "judge.reference_metrics=[]",
            "judge.sample_per_language=null",
            "+judge.max_repairs=0",
        ]
    )
    updates = {"rubrics": ["coherence"], "repeats": repeats}  # the model: smollm2's config
    return cfg.model_copy(update={"judge": cfg.judge.model_copy(update=updates)})


def test_repeats_are_seeded_asks_averaged_with_their_agreement(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite")
    SeededJudge.calls = 0
    rows = judged(_cfg(3), QUESTIONS, ANSWERS, [], tmp_path / "p.jsonl", cache, _factory)
    assert SeededJudge.calls == 6  # 2 questions x 3 asks, each its own cache entry
    by_question = {r.question_id: r for r in rows}
    asks = ["smollm2.repeat1", "smollm2.repeat2", "smollm2.repeat3"]
    assert by_question["q1"].votes == dict(zip(asks, [2.0, 2.0, 1.0], strict=True))
    assert by_question["q1"].score == pytest.approx(5 / 3)
    assert by_question["q2"].score == 2.0
    (agreement,) = judge.summarize(_cfg(3), rows)["jury_agreement"]
    # q1: one of its three pairs of asks agrees; q2: all three
    assert agreement["items"] == 2 and agreement["percent_agreement"] == pytest.approx(2 / 3)

    again = judged(_cfg(3), QUESTIONS, ANSWERS, [], tmp_path / "p.jsonl", cache, _factory)
    single = judged(_cfg(1), QUESTIONS, ANSWERS, [], tmp_path / "s.jsonl", cache, _factory)
    assert SeededJudge.calls == 6  # a rerun, and one ask (the first's seed), are all cached
    assert [r.score for r in again] == [r.score for r in rows]
    assert [r.score for r in single] == [2.0, 2.0] and not any(r.votes for r in single)


def test_repeats_need_one_judge_model() -> None:
    with pytest.raises(ConfigError, match="repeats=2 asks one judge `model` several times"):
        compose(["judge=jury", "+judge.repeats=2"])
