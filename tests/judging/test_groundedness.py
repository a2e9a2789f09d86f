"""The groundedness check with a scripted judge: requests, strict verdicts, rows, summary and the
answers page's marks (#28: groundedness, sentence by sentence)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from parakh.backends.base import ChatRequest
from parakh.backends.scripted import ScriptedBackend
from parakh.config import compose
from parakh.config.judge import JuryConfig
from parakh.config.model import ScriptedModel
from parakh.config.stage_config import ParakhConfig
from parakh.errors import ConfigError
from parakh.judging.groundedness import SentenceForm
from parakh.report.answer_scores import TEXTS, AnswerScores
from parakh.report.answers_page import AnswerArticles
from parakh.report.columns import JudgeColumns
from parakh.report.row_files import STATS_COLUMNS, JudgeFile
from parakh.schema import Generation, Judgment, Question, Retrieval, RetrievedChunk
from parakh.stages.judge import summarize
from tests.judging.judge_files import judged

CHUNKS = [
    "On the day of surgery, eat a light meal at least 4 hours before your surgery time.",
    "Plain water is allowed up to 2 hours before the surgery.",
]
SUPPORTED = "Eat a light meal at least 4 hours before your surgery."
UNSUPPORTED = "Bring your <b>reading</b> glasses & a shawl."
CONTRADICTED = "You may drink water up to 6 hours before the surgery."
ANSWER = f"{SUPPORTED} {UNSUPPORTED}\n{CONTRADICTED}"


def verdicts(*entries: tuple[str, int | None]) -> str:
    said = [{"index": i, "verdict": v, "chunk": c} for i, (v, c) in enumerate(entries, 1)]
    return json.dumps({"sentences": said})


SNC = verdicts(("supported", 1), ("not_supported", None), ("contradicted", 2))


def chunk(k: int, text: str) -> RetrievedChunk:
    return RetrievedChunk(
        chunk_id=f"raw:doc#{k}", document_id="raw:doc", kind="raw", text=text, score=1.0
    )


def config(responses: dict[str, str], **judge: Any) -> ParakhConfig:
    cfg = compose(["judge=smoke", "judge.reference_metrics=[]", "judge.sample_per_language=null"])
    scripted = ScriptedModel(
        name="judge", backend="scripted", responses=responses, default_response="{}"
    )
    updates = {"model": scripted, "rubrics": [], "checks": ["groundedness"], **judge}
    return cfg.model_copy(update={"judge": cfg.judge.model_copy(update=updates)})


def run(
    cfg: ParakhConfig,
    tmp_path: Path,
    answers: dict[str, str | None],
    language: str = "en",
    seen: list[ChatRequest] | None = None,
) -> list[Judgment]:
    questions = [Question(id=q, text="When can I eat?", language=language) for q in answers]
    generations = [
        Generation(question_id=q, model="m", status="ok", response=a)
        if a is not None
        else Generation(question_id=q, model="m", status="error", error="HTTP 500")
        for q, a in answers.items()
    ]
    kb = [chunk(k, t) for k, t in enumerate(CHUNKS, 1)]
    retrievals = [Retrieval(question_id=q, raw_chunks=kb, kb_update_chunks=[]) for q in answers]

    class Recording(ScriptedBackend):
        def complete(self, request):  # type: ignore[no-untyped-def]
            (seen if seen is not None else []).append(request)
            return super().complete(request)

    progress = tmp_path / "p.jsonl"
    return judged(cfg, questions, generations, retrievals, progress, backend_factory=Recording)


def article(rows: list[Judgment], answer: str) -> str:
    read = JudgeFile.of_rows(rows)
    scores = AnswerScores(JudgeColumns.of_table(read.columns(STATS_COLUMNS)), read.columns(TEXTS))
    answers = {"m": [Generation(question_id="q1", model="m", status="ok", response=answer)]}
    question = Question(id="q1", text="When can I eat?", language="en")
    return AnswerArticles([question], answers, scores, ["m"], title="t", partial=None).article("q1")


def test_one_supported_one_unsupported_one_contradicted_sentence(tmp_path: Path) -> None:
    cfg = config({"q1::groundedness": SNC})
    rows = run(cfg, tmp_path, {"q1": ANSWER})
    by_metric = {r.metric: r for r in rows}
    grounded, contradiction = by_metric["grounded_sentences"], by_metric["contradiction"]
    assert grounded.status == contradiction.status == "ok"
    assert grounded.label == "snc"  # supported, not supported, contradicted
    assert grounded.score == pytest.approx(1 / 3, abs=1e-4) and contradiction.score == 1.0
    assert grounded.justification == (
        "1 supported (raw:doc#1); 2 not_supported; 3 contradicted (raw:doc#2)"
    )
    assert summarize(cfg, rows)["groundedness"] == {
        "answers": 1,
        "sentences": 3,
        "verdicts": {"supported": 1, "not_supported": 1, "contradicted": 1},
    }
    page = article(rows, ANSWER)
    marks = re.findall(r'<mark class="(\w+)"[^>]*>(.*?)</mark>', page)
    assert marks == [
        ("unsupported", "Bring your &lt;b&gt;reading&lt;/b&gt; glasses &amp; a shawl."),
        ("contradicted", CONTRADICTED),
    ]
    assert f"{SUPPORTED} <mark" in page  # the supported sentence stays unmarked
    assert 'title="contradicted by a chunk its model saw (groundedness judge)"' in page


def test_the_request_numbers_sentences_and_chunks_and_bounds_its_output(tmp_path: Path) -> None:
    seen: list[ChatRequest] = []
    run(config({"q1::groundedness": SNC}), tmp_path, {"q1": ANSWER}, seen=seen)
    (request,) = seen
    user = request.messages[1][1]
    assert request.key == "q1::groundedness"
    assert "RawChunk: [1] On the day" in user and "RawChunk: [2] Plain water" in user
    assert "Sentence 2: Bring your ‹b›reading‹/b› glasses" in user  # escaped as data
    items = request.json_schema["properties"]["sentences"]  # type: ignore[index]
    assert items["minItems"] == items["maxItems"] == 3
    cite, none = items["items"]["anyOf"]
    assert cite["properties"]["chunk"]["enum"] == [1, 2]
    assert none["properties"]["chunk"] == {"type": "null"}
    assert request.sampling.max_tokens == SentenceForm(3, ("a", "b")).max_output_tokens()


@pytest.mark.parametrize(("sentences", "chunks"), [(1, 0), (3, 2), (12, 10), (120, 150)])
def test_max_tokens_holds_the_longest_schema_valid_output(sentences: int, chunks: int) -> None:
    form = SentenceForm(sentences, tuple(f"c{k}" for k in range(chunks)))
    worst = ("contradicted", chunks) if chunks else ("not_supported", None)
    longest = verdicts(*[worst] * sentences).encode()  # the widest verdict, chunk and numbers
    assert form.parse(longest.decode()).valid
    assert len(longest) <= form.max_output_tokens() <= 1.2 * len(longest) + 20


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("The first sentence is supported.", "no JSON object in output"),
        (verdicts(("supported", 1), ("not_supported", None)), "no verdict for sentence(s) [3]"),
        (SNC.replace('"index": 3', '"index": 4'), "sentence index 4 is not one of 1..3"),
        (SNC.replace('"chunk": 2', '"chunk": 3'), "sentence 3: chunk 3 is not one of 1..2"),
        (SNC.replace('"index": 3', '"index": 2'), "a sentence twice"),
        (SNC.replace('"chunk": null', '"chunk": 1'), "sentence 2: not_supported cites"),
        (SNC.replace('"supported", "chunk": 1', '"true", "chunk": 1'), "unknown verdict 'true'"),
        (SNC.replace("}]}", ', "why": "x"}]}'), "an entry is not an object with exactly the keys"),
        (SNC[:-1] + ', "extra": 1}', 'expected one key, "sentences"'),
    ],
)
def test_an_unusable_output_is_invalid_with_its_reason(raw: str, reason: str) -> None:
    verdict = SentenceForm(3, ("a", "b")).parse(raw)
    assert not verdict.valid and reason in (verdict.reason or "")


def test_an_invalid_output_is_an_invalid_row_never_a_score(tmp_path: Path) -> None:
    cfg = config({"q1::groundedness": "Sentence 1 is supported."}, max_repairs=0)
    rows = run(cfg, tmp_path, {"q1": ANSWER})
    assert [r.status for r in rows] == ["invalid", "invalid"]
    assert all(r.score is None and r.label is None for r in rows)
    assert rows[0].reason == "no JSON object in output"
    assert rows[0].raw_output == "Sentence 1 is supported."


def test_a_repair_can_make_the_output_valid(tmp_path: Path) -> None:
    bad = SNC.replace('"chunk": 2', '"chunk": 9')
    cfg = config({"q1::groundedness": bad, "q1::groundedness::repair1": SNC})
    seen: list[ChatRequest] = []
    rows = run(cfg, tmp_path, {"q1": ANSWER}, seen=seen)
    assert [r.status for r in rows] == ["ok", "ok"] and "repaired" in rows[0].flags
    assert "chunk 9 is not one of 1..2" in seen[1].messages[-1][1]


def test_a_hindi_answer_is_split_at_the_danda(tmp_path: Path) -> None:
    answer = "सर्जरी से 4 घंटे पहले हल्का भोजन करें। अपना चश्मा साथ लाएँ।"
    seen: list[ChatRequest] = []
    output = verdicts(("supported", 1), ("not_supported", None))
    rows = run(config({"q1::groundedness": output}), tmp_path, {"q1": answer}, "hi", seen)
    user = seen[0].messages[1][1]
    assert "Sentence 1: सर्जरी से 4 घंटे पहले हल्का भोजन करें।\nSentence 2: अपना" in user
    assert rows[0].label == "sn" and rows[0].score == 0.5 and rows[0].language == "hi"


def test_unsampled_answers_are_skipped_and_failed_ones_are_errors(tmp_path: Path) -> None:
    cfg = config({}, sample_per_language=1)
    rows = run(cfg, tmp_path, {"q1": None, "q2": ANSWER, "q3": ANSWER})
    statuses = {(r.question_id, r.metric): (r.status, r.reason) for r in rows}
    sampled = [q for q in ("q1", "q2", "q3") if statuses[q, "contradiction"][0] != "skipped"]
    assert len(sampled) == 1 and len(rows) == 6
    skipped = statuses[next(q for q in ("q2", "q3") if q not in sampled), "grounded_sentences"]
    assert skipped == ("skipped", "not in the judge's sample (judge.sample_per_language)")
    failed = run(config({}), tmp_path / "all", {"q1": None})
    assert {(r.status, r.reason) for r in failed} == {("error", "generation error: HTTP 500")}


def test_the_check_takes_one_judge_model_not_a_jury(tmp_path: Path) -> None:
    cfg = config({}, model=None, jury=JuryConfig(models=["smollm2", "qwen25_05b"]))
    with pytest.raises(ConfigError, match="takes one judge model"):
        run(cfg, tmp_path, {"q1": ANSWER})


def test_a_window_that_holds_no_chunk_is_an_error_row(tmp_path: Path) -> None:
    scripted = config({}).judge.model
    small = scripted.model_copy(update={"context_window": 300})  # type: ignore[union-attr]
    rows = run(config({}, model=small), tmp_path, {"q1": ANSWER})
    assert {r.status for r in rows} == {"error"}
    assert "window (300 tokens) holds no chunk" in (rows[0].reason or "")
