"""Rubric judging with a scripted judge: requests, bounded repair, budget checks, rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.backends.scripted import ScriptedBackend
from parakh.config import compose
from parakh.config.model import ScriptedModel
from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError
from parakh.judging.llm_judge import judge_rubrics
from parakh.schema import Generation, Question
from tests.judging.judge_files import judged

OK = '{"Score": 2, "Justification": "fine"}'


def _cfg(responses: dict[str, str], default: str = OK, **judge_updates) -> ParakhConfig:
    cfg = compose(["judge=smoke", "judge.reference_metrics=[]", "judge.sample_per_language=null"])
    scripted = ScriptedModel(
        name="judge", backend="scripted", responses=responses, default_response=default
    )
    updates = {"model": scripted, "rubrics": ["coherence"], **judge_updates}
    return cfg.model_copy(update={"judge": cfg.judge.model_copy(update=updates)})


def _run(cfg: ParakhConfig, tmp_path: Path, backends: list[ScriptedBackend] | None = None):  # type: ignore[no-untyped-def]
    questions = [Question(id="q1", text="When can I bathe?", language="en")]
    generations = [Generation(question_id="q1", model="m", status="ok", response="After a week.")]

    def factory(model_cfg):  # type: ignore[no-untyped-def]
        backend = ScriptedBackend(model_cfg)
        if backends is not None:
            backends.append(backend)
        return backend

    return judged(cfg, questions, generations, [], tmp_path / "p.jsonl", backend_factory=factory)


def test_a_repair_request_can_make_an_output_valid(tmp_path: Path) -> None:
    cfg = _cfg({"q1::coherence": "Score: 2", "q1::coherence::repair1": OK})
    backends: list[ScriptedBackend] = []
    (row,) = _run(cfg, tmp_path, backends)
    assert row.status == "ok" and row.score == 2 and row.flags == ["repaired"]
    assert row.raw_output == OK  # the score comes from the output shown beside it
    assert backends[0].calls == 2


def test_a_failed_repair_keeps_the_original_output_and_says_why(tmp_path: Path) -> None:
    cfg = _cfg({"q1::coherence": "Score: 2", "q1::coherence::repair1": '{"Score": 9}'})
    (row,) = _run(cfg, tmp_path)
    assert row.status == "invalid" and row.score is None
    assert row.raw_output == "Score: 2"
    assert row.reason is not None and row.reason.startswith("no JSON object in output")
    assert "repair 1: Score 9 outside 0..2" in row.reason


def test_repairs_are_bounded(tmp_path: Path) -> None:
    cfg = _cfg({}, default="nonsense", max_repairs=2)
    backends: list[ScriptedBackend] = []
    (row,) = _run(cfg, tmp_path, backends)
    assert row.status == "invalid" and backends[0].calls == 3
    assert "repair 1:" in (row.reason or "") and "repair 2:" in (row.reason or "")


def test_no_repair_when_disabled(tmp_path: Path) -> None:
    backends: list[ScriptedBackend] = []
    (row,) = _run(_cfg({}, default="nonsense", max_repairs=0), tmp_path, backends)
    assert row.status == "invalid" and backends[0].calls == 1


def test_repair_request_quotes_the_reply_and_the_reason(tmp_path: Path) -> None:
    seen = []

    class Recording(ScriptedBackend):
        def complete(self, request):  # type: ignore[no-untyped-def]
            seen.append(request)
            return super().complete(request)

    cfg = _cfg({"q1::coherence": '{"Score": 3, "Justification": "x"}'})
    questions = [Question(id="q1", text="q", language="en")]
    generations = [Generation(question_id="q1", model="m", status="ok", response="r")]
    judged(cfg, questions, generations, [], tmp_path / "p.jsonl", backend_factory=Recording)
    repair = seen[1]
    assert repair.key == "q1::coherence::repair1"
    assert repair.messages[:2] == seen[0].messages
    assert repair.messages[2] == ("assistant", '{"Score": 3, "Justification": "x"}')
    assert "Score 3 outside 0..2" in repair.messages[3][1]
    assert repair.json_schema == seen[0].json_schema


def test_max_tokens_must_hold_any_schema_valid_output() -> None:
    cfg = _cfg({}, max_tokens=48)
    with pytest.raises(ConfigError, match="max_tokens 48 can cut off a valid answer"):
        judge_rubrics(cfg.judge)


def test_smoke_judge_budget_fits_its_schema() -> None:
    cfg = compose(["judge=smoke"]).judge
    for rubric in judge_rubrics(cfg):
        assert rubric.max_output_tokens(cfg.max_justification_chars) <= cfg.max_tokens


def test_indicquest_one_call_gives_six_rows(tmp_path: Path) -> None:
    output = (
        '{"Factual Accuracy": 4.5, "Relevance": 5, "Clarity": 4, "Language Consistency": 5, '
        '"Conciseness": 3, "Overall": 4.3}'
    )
    cfg = _cfg(
        {}, default=output, rubrics=["indicquest"], prompt="judge_indicquest", max_tokens=448
    )
    backends: list[ScriptedBackend] = []
    rows = _run(cfg, tmp_path, backends)
    assert backends[0].calls == 1
    assert {r.metric: r.score for r in rows} == {
        "iq_factual_accuracy": 4.5,
        "iq_relevance": 5.0,
        "iq_clarity": 4.0,
        "iq_language_consistency": 5.0,
        "iq_conciseness": 3.0,
        "iq_overall": 4.3,
    }
    assert all(r.scale_max == 5.0 for r in rows)


def test_indicquest_split_calls_once_per_criterion(tmp_path: Path) -> None:
    cfg = _cfg(
        {"q1::iq_overall": '{"Overall": 2}'},
        default="{}",
        rubrics=["indicquest"],
        prompt="judge_indicquest",
        split_criteria=True,
        max_repairs=0,
        max_tokens=448,
    )
    backends: list[ScriptedBackend] = []
    rows = _run(cfg, tmp_path, backends)
    assert backends[0].calls == 6
    by = {r.metric: r for r in rows}
    assert by["iq_overall"].status == "ok" and by["iq_overall"].score == 2
    assert by["iq_relevance"].status == "invalid" and by["iq_relevance"].score is None


def test_invalid_multi_criterion_output_invalidates_every_criterion(tmp_path: Path) -> None:
    cfg = _cfg(
        {},
        default='{"Factual Accuracy": 9, "Relevance": 5}',
        rubrics=["indicquest"],
        prompt="judge_indicquest",
        max_repairs=0,
        max_tokens=448,
    )
    rows = _run(cfg, tmp_path)
    assert len(rows) == 6 and all(r.status == "invalid" and r.score is None for r in rows)
