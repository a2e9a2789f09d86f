"""The sufficiency check with a scripted judge: judge-decided sufficiency, dataset labels with the
judge's agreement, invalid verdicts never scored, answers never shown to the judge."""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.backends.cache import ResponseCache
from parakh.backends.scripted import ScriptedBackend
from parakh.config import compose
from parakh.config.model import ScriptedModel
from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError
from parakh.judging.sufficiency import CHECK, CONTEXT_HALLUCINATION, FALSE_REFUSAL
from parakh.schema import Generation, Judgment, Question
from tests.judging.judge_files import judged

REFUSAL = (
    "I do not know the answer to your question. If this needs to be answered by a doctor, "
    "please schedule a consultation."
)
YES, NO = '{"Sufficient": 1}', '{"Sufficient": 0}'


def _cfg(responses: dict[str, str], **judge_updates: object) -> ParakhConfig:
    cfg = compose(
        [
            "dataset=demo",
            "judge=smoke",
            "judge.rubrics=[]",
            "judge.reference_metrics=[]",
            "judge.sample_per_language=null",
            "+judge.checks=[sufficiency]",
        ]
    )
    scripted = ScriptedModel(
        name="judge", backend="scripted", responses=responses, default_response="nonsense"
    )
    updates = {"model": scripted, **judge_updates}
    return cfg.model_copy(update={"judge": cfg.judge.model_copy(update=updates)})


class Recording(ScriptedBackend):
    requests: list = []  # every request any instance was sent

    def complete(self, request):  # type: ignore[no-untyped-def]
        Recording.requests.append(request)
        return super().complete(request)


def _judge(
    cfg: ParakhConfig,
    tmp_path: Path,
    questions: list[Question],
    answers: dict[str, str | None],
    model: str = "m",
    cache: ResponseCache | None = None,
) -> list[Judgment]:
    generations = [
        Generation(question_id=q, model=model, status="ok", response=a)
        if a is not None
        else Generation(question_id=q, model=model, status="error", error="timeout")
        for q, a in answers.items()
    ]
    return judged(cfg, questions, generations, [], tmp_path / f"{model}.jsonl", cache, Recording)


def _by(rows: list[Judgment]) -> dict[tuple[str, str], Judgment]:
    return {(r.question_id, r.metric): r for r in rows}


def _questions(n: int, **fields: object) -> list[Question]:
    return [
        Question(id=f"q{i}", text=f"question {i}?", language="en", **fields)
        for i in range(1, n + 1)
    ]


def test_the_judge_decides_where_the_dataset_has_no_labels(tmp_path: Path) -> None:
    cfg = _cfg(
        {"q1::sufficiency": YES, "q2::sufficiency": NO, "q3::sufficiency": YES,
         "q4::sufficiency": "{not json", "q4::sufficiency::repair1": "still not"}
    )  # fmt: skip
    answers = {"q1": "Eat 4 hours before.", "q2": REFUSAL, "q3": REFUSAL, "q4": "x", "q5": None}
    rows = _by(_judge(cfg, tmp_path, _questions(5), answers))
    assert len(rows) == 10  # both metrics for every question
    q1, q2, q3 = (
        rows["q1", FALSE_REFUSAL],
        rows["q2", CONTEXT_HALLUCINATION],
        rows["q3", FALSE_REFUSAL],
    )
    assert (q1.status, q1.score, q1.label) == ("ok", 0.0, "answered")
    assert (q2.status, q2.score, q2.label) == ("ok", 0.0, "abstained")
    assert (q3.status, q3.score, q3.label) == ("ok", 1.0, "abstained")  # a false refusal
    assert q1.flags == ["sufficiency_from:judge"] and q1.raw_output == YES
    assert rows["q1", CONTEXT_HALLUCINATION].status == "skipped"
    assert rows["q2", FALSE_REFUSAL].status == "skipped"
    for metric in (CONTEXT_HALLUCINATION, FALSE_REFUSAL):  # no verdict: never scored
        invalid, failed = rows["q4", metric], rows["q5", metric]
        assert (invalid.status, invalid.score, invalid.raw_output) == ("invalid", None, "{not json")
        assert "no sufficiency verdict" in (invalid.reason or "") and "repair 1" in (
            invalid.reason or ""
        )
        assert (failed.status, failed.score) == ("error", None)
    summary = CHECK.summarize(list(rows.values()))
    assert summary is not None
    overall = summary["all"]
    assert overall[CONTEXT_HALLUCINATION] == {"numerator": 0, "denominator": 1, "value": 0.0}
    assert overall["abstention_when_insufficient"]["value"] == 1.0
    assert overall[FALSE_REFUSAL] == {"numerator": 1, "denominator": 2, "value": 0.5}
    assert overall["no_sufficiency_verdict"] == {"error": 1, "invalid": 1}
    assert overall["sufficiency_from"] == {"judge": 3} and overall["judge_agreement"] is None


def test_the_judge_never_sees_the_answer_and_a_second_model_reuses_its_verdicts(
    tmp_path: Path,
) -> None:
    cfg = _cfg({"q1::sufficiency": YES, "q2::sufficiency": NO})
    cache = ResponseCache(tmp_path / "cache.sqlite")
    Recording.requests = []
    _judge(cfg, tmp_path, _questions(2), {"q1": "SECRET ANSWER", "q2": REFUSAL}, "a", cache)
    assert len(Recording.requests) == 2
    sent = "".join(text for r in Recording.requests for _, text in r.messages)
    assert "SECRET ANSWER" not in sent and "question 1?" in sent
    rows = _judge(cfg, tmp_path, _questions(2), {"q1": REFUSAL, "q2": "an answer"}, "b", cache)
    assert len(Recording.requests) == 2  # the cache answered model b's run
    assert {(r.question_id, r.metric): r.score for r in rows if r.status == "ok"} == {
        ("q1", FALSE_REFUSAL): 1.0,
        ("q2", CONTEXT_HALLUCINATION): 1.0,
    }
    cache.close()


def test_dataset_labels_decide_and_the_summary_gives_the_judges_agreement(tmp_path: Path) -> None:
    # labels: q1 q2 answerable, q3 q4 not; the judge agrees on q1 q3 q4, not on q2
    cfg = _cfg({"q1::sufficiency": YES, "q2::sufficiency": NO, "q3::sufficiency": NO,
                "q4::sufficiency": NO, "q5::sufficiency": "nonsense"}, max_repairs=0)  # fmt: skip
    questions = [
        Question(id=f"q{i}", text=f"question {i}?", language="hi" if i > 2 else "en",
                 answerable=i in (1, 2, 5))
        for i in range(1, 6)
    ]  # fmt: skip
    answers = {
        "q1": "Eat 4 hours before.",
        "q2": REFUSAL,
        "q3": "Yes, it is free.",
        "q4": REFUSAL,
        "q5": "ok",
    }
    rows = _judge(cfg, tmp_path, questions, answers)
    by = _by(rows)
    assert by["q2", FALSE_REFUSAL].score == 1.0  # the label decides, not the judge's "no"
    assert by["q2", FALSE_REFUSAL].flags == ["sufficiency_from:dataset", "judge_said:insufficient"]
    assert by["q3", CONTEXT_HALLUCINATION].score == 1.0
    assert by["q5", FALSE_REFUSAL].flags[-1] == "judge_said:no_verdict"
    summary = CHECK.summarize(rows)
    assert summary is not None
    agreement = summary["all"]["judge_agreement"]
    assert (agreement["items"], agreement["agree"], agreement["no_verdict"]) == (4, 3, 1)
    assert agreement["share"] == 0.75 and agreement["cohen_kappa"] == pytest.approx(0.5)
    assert summary["hi"][CONTEXT_HALLUCINATION] == {"numerator": 1, "denominator": 2, "value": 0.5}
    assert summary["en"]["judge_agreement"]["items"] == 2


def test_without_labels_or_a_judge_model_the_check_refuses(tmp_path: Path) -> None:
    cfg = _cfg({}, model=None)
    with pytest.raises(ConfigError, match="needs the dataset's sufficiency labels"):
        _judge(cfg, tmp_path, _questions(1), {"q1": "x"})


def test_labels_without_a_judge_model_call_no_model(tmp_path: Path) -> None:
    Recording.requests = []
    rows = _judge(
        _cfg({}, model=None), tmp_path, _questions(2, answerable=False), {"q1": "x", "q2": REFUSAL}
    )
    assert not Recording.requests
    assert [(r.metric, r.score) for r in rows if r.status == "ok"] == [
        (CONTEXT_HALLUCINATION, 1.0),
        (CONTEXT_HALLUCINATION, 0.0),
    ]


@pytest.mark.parametrize("shard", [0, 1])
def test_every_shard_reads_the_labels_of_the_whole_questions_file(
    tmp_path: Path, shard: int
) -> None:
    questions = _questions(8)
    questions[0] = questions[0].model_copy(update={"answerable": False})  # in one shard only
    cfg = _cfg({}, model=None)
    cfg = cfg.model_copy(update={"shard": shard, "num_shards": 2})
    rows = _judge(cfg, tmp_path, questions, {q.id: "An answer." for q in questions})
    assert rows and all(r.flags == ["sufficiency_from:dataset"] for r in rows)
    assert len(rows) < 2 * len(questions)  # only this shard's questions
