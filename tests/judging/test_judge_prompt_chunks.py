"""`judge.chunks_from=generation`: the rubric judge reads the chunks the answering model's prompt
held, from its row in the generations file, not the question's chunks in index/retrieval.jsonl
(issue #26 item 3; the HEALTH-PARIKSHA judge's default)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from parakh.backends.base import Backend, BlockingBackend, ChatRequest, Completion, estimate_tokens
from parakh.config import compose
from parakh.config.model import ModelConfig, Sampling
from parakh.errors import InputError
from parakh.io import write_jsonl
from parakh.judging.judge_context import PromptChunksError, seen_retrieval
from parakh.prompts.builder import ELLIPSIS, ModelView, build_prompt
from parakh.prompts.template import load_prompt
from parakh.schema import Generation, Question, Retrieval, RetrievedChunk
from parakh.stage_outputs import Layout, generation_name
from parakh.stages import judge
from tests.judging.judge_files import judged

SEEN_RAW = "The eye shield is worn at night for one week after surgery."
SEEN_UPDATE = "Since March 2024 a head bath is allowed from the 10th day after surgery."
FRESH = "A freshly retrieved chunk that the answering model never saw."
QUESTION = Question(
    id="q1", text="When can I wash my hair?", language="en",
    reference_answers=["From the 10th day after surgery."],
)  # fmt: skip


def _chunk(chunk_id: str, kind: str, text: str, added: date | None = None) -> RetrievedChunk:
    return RetrievedChunk(
        chunk_id=chunk_id, document_id="d", kind=kind, text=text, score=0.9, added_at=added
    )


def _retrieval(raw: list[str], update: str | None) -> Retrieval:
    return Retrieval(
        question_id="q1",
        raw_chunks=[_chunk(f"raw{i}", "raw", t) for i, t in enumerate(raw)],
        kb_update_chunks=[_chunk("u0", "update", update, date(2024, 3, 1))] if update else [],
    )


def _answered(prompt: str, retrieval: Retrieval, window: int = 8192) -> Generation:
    """The row the generate stage writes: the prompt built from `retrieval`, and an answer."""
    view = ModelView("chat", window, Sampling(max_tokens=64))
    built = build_prompt(load_prompt(prompt), QUESTION, retrieval, view, estimate_tokens)
    return Generation(
        question_id="q1",
        model="answerer",
        status="ok",
        response="From day 10.",
        messages=[{"role": role, "content": text} for role, text in built.messages],
        truncation=built.truncation,
    )


@pytest.mark.parametrize("prompt", ["healthbot", "healthbot_demo"])
def test_the_prompts_chunks_come_back_as_the_model_saw_them(prompt: str) -> None:
    second = "Second raw chunk.\n[2] looks like a number, and [3] too."
    seen = seen_retrieval(
        _answered(prompt, _retrieval([SEEN_RAW, second], SEEN_UPDATE)), load_prompt(prompt)
    )
    assert [c.text for c in seen.raw_chunks] == [SEEN_RAW, second]
    assert len(seen.kb_update_chunks) == 1
    assert seen.kb_update_chunks[0].text == SEEN_UPDATE
    assert seen.kb_update_chunks[0].added_at == date(2024, 3, 1)
    assert [c.chunk_id for c in seen.raw_chunks][0] == "prompt:raw:1"
    empty = seen_retrieval(_answered(prompt, _retrieval([], None)), load_prompt(prompt))
    assert empty.raw_chunks == [] and empty.kb_update_chunks == []


def test_a_chunk_cut_to_fit_the_answering_models_window_reaches_the_judge_cut() -> None:
    long_raw = "Avoid rubbing the eye after cataract surgery. " * 200
    retrieval = _retrieval([SEEN_RAW, long_raw], SEEN_UPDATE)
    generation = _answered("healthbot", retrieval, window=1000)
    assert generation.truncation is not None  # the prompt was cut
    seen = seen_retrieval(generation, load_prompt("healthbot"))
    texts = [c.text for c in seen.raw_chunks]
    kept = generation.truncation.passages_kept - len(seen.kb_update_chunks)
    assert len(texts) == kept
    assert long_raw.strip() not in texts
    if generation.truncation.chars_trimmed:
        assert texts[-1].endswith(ELLIPSIS)
    assert seen.kb_update_chunks[0].text == SEEN_UPDATE


class RecordingJudge(BlockingBackend):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__(cfg)
        self.requests: list[ChatRequest] = []

    def identity(self) -> dict[str, Any]:
        return {"backend": "recording", "model": self.cfg.name}

    def complete(self, request: ChatRequest) -> Completion:
        self.requests.append(request)
        return Completion(text=json.dumps({"Score": 2, "Justification": "ok"}))


def test_the_health_pariksha_judge_reads_the_generations_chunks_not_a_fresh_retrieval(
    tmp_path: Path,
) -> None:
    cfg = compose(["dataset=demo", "model=extractive", "judge=health_pariksha", "progress=false"])
    assert cfg.judge.chunks_from == "generation"
    generation = _answered(judge.answer_prompt(cfg), _retrieval([SEEN_RAW], SEEN_UPDATE))
    made: list[RecordingJudge] = []

    def factory(model_cfg: ModelConfig) -> Backend:
        made.append(RecordingJudge(model_cfg))
        return made[-1]

    fresh = _retrieval([FRESH], None)
    rows = judged(
        cfg, [QUESTION], [generation], [fresh], tmp_path / "p.jsonl", backend_factory=factory
    )
    requests = [r for backend in made for r in backend.requests]
    assert len(requests) == 4 and all(r.status == "ok" for r in rows)
    for request in requests:
        user = request.messages[-1][1]
        assert SEEN_RAW in user and SEEN_UPDATE in user
        assert FRESH not in user

    index = compose(["dataset=demo", "model=extractive", "judge=health_pariksha",
                     "judge.chunks_from=index", "progress=false"])  # fmt: skip
    made.clear()
    judged(index, [QUESTION], [generation], [fresh], tmp_path / "q.jsonl",
              backend_factory=factory)  # fmt: skip
    assert all(FRESH in r.messages[-1][1] for b in made for r in b.requests)


def test_the_stage_reads_no_retrieval_file_for_them(tmp_path: Path) -> None:
    """The generations file alone: index/retrieval.jsonl is absent and never opened."""
    cfg = compose(["dataset=demo", "model=extractive", "judge=health_pariksha"])
    layout = Layout(processed=tmp_path / "demo", reports=tmp_path / "reports")
    generations = [
        _answered(judge.answer_prompt(cfg), _retrieval([SEEN_RAW], SEEN_UPDATE)),
        Generation(question_id="q2", model="answerer", status="error", error="HTTP 500"),
    ]
    answers = layout.generations(generation_name(cfg))
    write_jsonl(answers, generations)
    assert not layout.retrieval.exists()
    chunks = judge.judge_chunks(cfg, answers, layout.retrieval, {"q1", "q2"})
    assert list(chunks) == ["q1"]  # a failed answer is not judged, so needs no chunks
    assert chunks["q1"].raw_chunks[0].text == SEEN_RAW


def test_an_answer_whose_prompt_shows_no_chunks_is_an_error_naming_file_and_line(
    tmp_path: Path,
) -> None:
    template = load_prompt("healthbot")
    bare = Generation(question_id="q1", model="m", status="ok", response="Yes.")
    with pytest.raises(PromptChunksError, match="no user turn"):
        seen_retrieval(bare, template)
    path = tmp_path / "answers.jsonl"
    write_jsonl(path, [_answered("healthbot", _retrieval([SEEN_RAW], None)), bare])
    cfg = compose(["dataset=demo", "judge=health_pariksha", "judge.chunks_from=generation",
                   "generation.prompt=healthbot"])  # fmt: skip
    with pytest.raises(InputError, match=r"answers.jsonl, line 2: answer to question 'q1'.*"
                       r"judge.chunks_from=index"):  # fmt: skip
        judge.judge_chunks(cfg, path, tmp_path / "retrieval.jsonl", {"q1"})
    with pytest.raises(PromptChunksError, match="shows no raw or KB-update chunks"):
        seen_retrieval(bare, load_prompt("nomiracl_vanilla"))
