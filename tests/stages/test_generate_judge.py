"""generate.run and judge.run with a scripted backend: every item once, failures as rows."""

from __future__ import annotations

from pathlib import Path

from tests.judging.judge_files import judged

from parakh.backends.cache import ResponseCache
from parakh.backends.scripted import ScriptedBackend
from parakh.config import compose
from parakh.config.model import ScriptedModel
from parakh.config.retrieval import EmbedderConfig
from parakh.retrieval.embedders import HashingEmbedder
from parakh.schema import Generation
from parakh.stages import generate, index


def _retrievals(cfg, questions, kb):
    embedder = HashingEmbedder(EmbedderConfig(name="hash", kind="hashing"))
    return index.run(cfg, questions, kb, embedder).retrievals


def test_generate_renders_the_healthbot_prompt_and_caches(
    tmp_path: Path, tiny_questions, tiny_kb
) -> None:
    cfg = compose()
    retrievals = _retrievals(cfg, tiny_questions, tiny_kb)
    backend = ScriptedBackend(
        ScriptedModel(
            name="fake",
            backend="scripted",
            responses={"q1": "After 10 days."},
            default_response="I do not know.",
        )
    )
    cache = ResponseCache(tmp_path / "cache.sqlite")
    rows = generate.run(
        cfg, tiny_questions, retrievals, backend, cache, tmp_path / "p1.jsonl"
    ).generations
    assert [g.question_id for g in rows] == ["q1", "q2", "q3"]
    assert rows[0].response == "After 10 days."
    system, user = rows[1].messages
    assert "The query is in Hindi and you must respond in Hindi." in system["content"]
    assert "RawChunks:" in user["content"] and "KBUpdateChunks:" in user["content"]
    assert backend.calls == 3
    again = generate.run(
        cfg, tiny_questions, retrievals, backend, cache, tmp_path / "p2.jsonl"
    ).generations
    assert backend.calls == 3  # all three came from the cache
    assert again == rows


def test_generate_resumes_from_progress_without_duplicates(
    tmp_path: Path, tiny_questions, tiny_kb
) -> None:
    cfg = compose()
    retrievals = _retrievals(cfg, tiny_questions, tiny_kb)
    model = ScriptedModel(name="fake", backend="scripted", default_response="ok")
    progress = tmp_path / "progress.jsonl"
    first = ScriptedBackend(model)
    generate.run(cfg, tiny_questions[:2], retrievals, first, None, progress)
    second = ScriptedBackend(model)
    rows = generate.run(cfg, tiny_questions, retrievals, second, None, progress).generations
    assert second.calls == 1
    assert [g.question_id for g in rows] == ["q1", "q2", "q3"]


def test_judge_scores_reference_metrics_and_records_failures(
    tmp_path: Path, tiny_questions
) -> None:
    cfg = compose(["judge=reference"])
    generations = [
        Generation(
            question_id="q1", model="m", status="ok", response="Do not wash your head for 10 days."
        ),
        Generation(
            question_id="q2", model="m", status="ok", response="दिन में चार बार दो सप्ताह तक डालें।"
        ),
        Generation(question_id="q3", model="m", status="error", error="HTTP 500"),
    ]
    rows = judged(cfg, tiny_questions, generations, [], tmp_path / "p.jsonl")
    assert len(rows) == 3 * len(cfg.judge.reference_metrics)
    by = {(r.question_id, r.metric): r for r in rows}
    assert by[("q1", "token_f1")].score == 1.0
    assert by[("q2", "rouge_l")].score == 1.0  # identical Hindi scores 1, not 0
    assert by[("q3", "chrf")].status == "error" and by[("q3", "chrf")].score is None
    assert "HTTP 500" in (by[("q3", "chrf")].reason or "")


def test_rubric_judge_output_that_does_not_parse_is_invalid_not_zero(
    tmp_path: Path, tiny_questions
) -> None:
    cfg = compose(["judge=smoke", "judge.reference_metrics=[]"])
    scripted = ScriptedModel(
        name="judge",
        backend="scripted",
        responses={
            "q1::coherence": '{"Score": 2, "Justification": "ok"}',
            "q1::conciseness": "The score is 2",
        },
        default_response='{"Score": 7, "Justification": "x"}',
    )
    cfg = cfg.model_copy(update={"judge": cfg.judge.model_copy(update={"model": scripted})})
    generations = [
        Generation(question_id=q.id, model="m", status="ok", response="After 10 days.")
        for q in tiny_questions
    ]
    rows = judged(cfg, tiny_questions, generations, [], tmp_path / "p.jsonl")
    assert len(rows) == 3 * 4
    by = {(r.question_id, r.metric): r for r in rows}
    assert by[("q1", "coherence")].status == "ok" and by[("q1", "coherence")].score == 2
    assert by[("q1", "conciseness")].status == "invalid"
    assert by[("q1", "conciseness")].raw_output == "The score is 2"
    assert by[("q2", "factual_correctness")].status == "invalid"  # 7 is out of range
    assert all(r.score is None for r in rows if r.status != "ok")
