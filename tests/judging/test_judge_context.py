"""The judge reads the question's chunks whole, cut only to fit its window; a cut is recorded on
the rows (`context_cut`). Issue #14's HEALTH-PARIKSHA acceptance tests. Which chunks
(`judge.chunks_from`): tests/judging/test_judge_prompt_chunks.py."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from parakh.backends.base import Backend, BlockingBackend, ChatRequest, Completion, estimate_tokens
from parakh.config import compose
from parakh.config.judge import JudgeConfig
from parakh.config.model import ModelConfig, ScriptedModel
from parakh.judging.ballot_rows import judge_with_rubrics
from parakh.judging.judge_context import CONTEXT_CUT, fit_knowledge_base
from parakh.judging.llm_judge import JudgeCalls
from parakh.judging.summary import judge_summary
from parakh.schema import Generation, Question, Retrieval, RetrievedChunk

UPDATE = (
    "Since March 2024 the hospital allows a head bath from the 10th day after surgery, with "
    "the eye closed and a shield on. " * 20
).strip()


def _chunk(i: int, kind: str, text: str, added: date | None = None) -> RetrievedChunk:
    return RetrievedChunk(
        chunk_id=f"{kind}:{i}", document_id=f"{kind}{i}", kind=kind, text=text, score=0.5,
        added_at=added,
    )  # fmt: skip


def _retrieval(raw_words: int) -> Retrieval:
    raw = [
        _chunk(i, "raw", f"Raw document {i} on eye care. " + "word " * raw_words) for i in range(2)
    ]
    return Retrieval(
        question_id="q1",
        raw_chunks=raw,
        kb_update_chunks=[_chunk(0, "update", UPDATE, date(2024, 3, 1))],
    )


class RecordingJudge(BlockingBackend):
    """Answers every request with a valid verdict and keeps the requests."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__(cfg)
        self.requests: list[ChatRequest] = []

    def identity(self) -> dict[str, Any]:
        return {"backend": "recording", "model": self.cfg.name}

    def complete(self, request: ChatRequest) -> Completion:
        self.requests.append(request)
        return Completion(text=json.dumps({"Score": 2, "Justification": "ok"}))


def _judge(cfg: JudgeConfig, retrieval: Retrieval, tmp_path: Path):  # type: ignore[no-untyped-def]
    made: list[RecordingJudge] = []

    def factory(model_cfg: ModelConfig) -> Backend:
        made.append(RecordingJudge(model_cfg))
        return made[-1]

    question = Question(
        id="q1", text="When can I wash my hair?", language="en",
        reference_answers=["From the 10th day."],
    )  # fmt: skip
    generation = Generation(
        question_id="q1", model="answerer", response="From day 10.", status="ok"
    )
    rows = judge_with_rubrics(
        cfg,
        ScriptedModel(name="answerer", backend="scripted"),
        [question],
        {"q1": generation},
        {"q1": retrieval},
        {"q1"},
        JudgeCalls(None, tmp_path / "progress.jsonl", show_progress=False, backend_factory=factory),
    )
    return rows, [r for backend in made for r in backend.requests]


def test_health_pariksha_judge_prompt_holds_the_kb_update_chunk_in_full(tmp_path: Path) -> None:
    """Three 1000-token-sized chunks and a long KB update: the judge (GPT-4o's window) gets
    every one whole; nothing is flagged."""
    cfg = compose(["judge=health_pariksha"]).judge
    retrieval = _retrieval(raw_words=1000)
    rows, requests = _judge(cfg, retrieval, tmp_path)
    assert len(requests) == 4  # one call per metric
    for request in requests:
        user = request.messages[-1][1]
        assert UPDATE in user
        assert all(c.text.strip() in user for c in retrieval.raw_chunks)
    assert rows and all(CONTEXT_CUT not in r.flags for r in rows)


def test_a_small_window_cuts_raw_chunks_before_the_kb_update(tmp_path: Path) -> None:
    """The smoke judge (SmolLM2, 2048 tokens): raw chunks give way, the update stays whole."""
    cfg = compose(["judge=smoke", "judge.sample_per_language=null"]).judge
    rows, requests = _judge(cfg, _retrieval(raw_words=1500), tmp_path)
    for request in requests:
        assert UPDATE in request.messages[-1][1]
    assert rows and all(CONTEXT_CUT in r.flags for r in rows)


def test_a_chunk_longer_than_the_window_is_cut_and_the_cut_recorded(tmp_path: Path) -> None:
    # the window holds max_tokens (3700: a 600-character justification), the prompt and a cut KB
    cfg = compose(["judge=health_pariksha", "judge.model.context_window=6500"]).judge
    long = "Cataract surgery aftercare: avoid rubbing the eye. " * 2000  # ~25k tokens
    retrieval = Retrieval(
        question_id="q1",
        raw_chunks=[_chunk(0, "raw", long)],
        kb_update_chunks=[_chunk(0, "update", UPDATE, date(2024, 3, 1))],
    )
    rows, requests = _judge(cfg, retrieval, tmp_path)
    for request in requests:
        user = request.messages[-1][1]
        assert long.strip() not in user and "avoid rubbing the eye" in user  # trimmed, not gone
        assert UPDATE in user
        prompt_tokens = sum(estimate_tokens(content) + 4 for _, content in request.messages)
        assert prompt_tokens + cfg.max_tokens <= 6500
    assert rows and all(CONTEXT_CUT in r.flags for r in rows)
    summary = judge_summary(rows)
    assert summary["context_cut_rows"] == len(rows) == 4  # the stage summary counts the cuts


def test_fit_cuts_the_lowest_ranked_raw_chunk_first_and_says_so() -> None:
    retrieval = _retrieval(raw_words=400)
    whole, cut = fit_knowledge_base(retrieval, 10**6, estimate_tokens)
    assert not cut and UPDATE in whole
    budget = estimate_tokens(UPDATE) + 60
    text, cut = fit_knowledge_base(retrieval, budget, estimate_tokens)
    assert cut and estimate_tokens(text) <= budget < estimate_tokens(whole)
    assert UPDATE in text  # the update is kept whole while raw chunks can give way
    raw = [c.text.strip() for c in retrieval.raw_chunks]
    assert "Raw document 1" not in text  # left out
    assert "RawChunk: Raw document 0" in text and raw[0] not in text  # trimmed


def test_an_unknown_judge_key_is_named() -> None:
    with pytest.raises(ValueError, match="nonsense_key"):
        JudgeConfig(name="j", prompt="judge_healthbot", nonsense_key=1)
