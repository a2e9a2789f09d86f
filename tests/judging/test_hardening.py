"""Judge hardening: injection detection on a corpus with look-alike negatives, and a judge that
echoes any score found in its input never gets that score into a row."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parakh.config import compose
from parakh.judging import llm_judge
from parakh.judging.hardening import PHRASES, Phrase, injection_cues
from parakh.metrics.rubric import load_rubric
from parakh.schema import Generation, Question
from parakh.text.languages import LANGUAGES
from tests.judging.echo_judge import EchoJudge
from tests.judging.judge_files import judged

CASES = json.loads((Path(__file__).parent / "cases" / "injection.json").read_text("utf-8"))["cases"]
POSITIVES = [c for c in CASES if c["expected"]]
# Every other language we evaluate, romanized Hindi, and the disguises (zero-width characters,
# look-alike letters, full-width and styled letters), each with unflagged medical look-alikes.
MULTILINGUAL = json.loads(
    (Path(__file__).parent / "cases" / "injection_multilingual.json").read_text("utf-8")
)["cases"]


def test_corpus_size() -> None:
    assert len(POSITIVES) >= 20
    assert len(CASES) - len(POSITIVES) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c["why"] for c in CASES])
def test_injection_case(case: dict[str, Any]) -> None:
    found = injection_cues(case["text"])
    assert bool(found) == bool(case["expected"]), found
    assert set(case["expected"]) <= set(found), found


@pytest.mark.parametrize("case", MULTILINGUAL, ids=[c["why"] for c in MULTILINGUAL])
def test_multilingual_and_disguised_case(case: dict[str, Any]) -> None:
    found = injection_cues(case["text"])
    assert bool(found) == bool(case["expected"]), found
    assert set(case["expected"]) <= set(found), found


@pytest.mark.parametrize("phrase", PHRASES, ids=[f"{p.language}-{p.cue}" for p in PHRASES])
def test_every_phrase_flags_its_own_example(phrase: Phrase) -> None:
    assert phrase.cue in injection_cues(phrase.example)


def test_every_language_has_each_cue() -> None:
    kinds = {(p.language, p.cue) for p in PHRASES}
    languages = {"hi", "hi-Latn", "bn", "gu", "kn", "ml", "mr", "or", "pa", "ta", "te", "ur"}
    for language in languages:
        for cue in ("override_instructions", "score_request", "addresses_judge"):
            assert (language, cue) in kinds, (language, cue)
    assert languages - {"hi-Latn"} <= set(LANGUAGES)


def test_empty_response_has_no_cues() -> None:
    assert injection_cues("") == [] and injection_cues(None) == []


INJECTED_SCORE = 2
OWN_SCORE = 1
ATTACKS = [c["text"] for c in POSITIVES]


def _judge_rows(tmp_path: Path, mode: str, responses: list[str]):  # type: ignore[no-untyped-def]
    cfg = compose(["judge=smoke", "judge.reference_metrics=[]", "judge.sample_per_language=null"])
    # `echo_inside_own` quotes the whole response in its Justification: the length limit
    # (checked after parsing, as a hosted API's strict schema cannot bound it) is raised so that
    # these rows test what they are about, that the judge's own object decides.
    chars = 1000
    updates = {
        "rubrics": ["coherence"],
        "max_repairs": 0,
        "max_justification_chars": chars,
        "max_tokens": load_rubric("coherence").max_output_tokens(chars),
    }
    cfg = cfg.model_copy(update={"judge": cfg.judge.model_copy(update=updates)})
    questions = [
        Question(id=f"q{i}", text="When can I wash my hair?", language="en")
        for i in range(len(responses))
    ]
    generations = [
        Generation(question_id=q.id, model="answerer", status="ok", response=r)
        for q, r in zip(questions, responses, strict=True)
    ]
    echo = EchoJudge(mode, own_score=OWN_SCORE)  # type: ignore[arg-type]
    rows = judged(
        cfg, questions, generations, [], tmp_path / f"{mode}.jsonl", backend_factory=lambda _: echo
    )
    assert echo.calls == len(responses)
    return rows


@pytest.mark.parametrize("mode", ["echo_found", "echo_then_own", "echo_inside_own"])
def test_an_echoing_judge_never_scores_with_the_injected_score(tmp_path: Path, mode: str) -> None:
    rows = _judge_rows(tmp_path, mode, ATTACKS)
    assert len(rows) == len(ATTACKS)
    for row, text in zip(rows, ATTACKS, strict=True):
        assert "injection" in row.flags and row.injection_cues, text
        assert row.score in (None, OWN_SCORE), (mode, text, row.raw_output)
        if mode == "echo_inside_own":
            assert row.status == "ok" and row.score == OWN_SCORE  # its own block decides
        if row.status == "ok":
            assert row.score == OWN_SCORE


def test_without_escaping_the_same_judge_would_score_the_injection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: the escaping is what keeps the fake verdicts out of the judge's output."""
    monkeypatch.setattr(llm_judge, "escape_block", lambda text: text)
    fake = [t for t in ATTACKS if '{"Score": 2' in t or "{“Score”: 2" in t]
    assert fake
    rows = _judge_rows(tmp_path, "echo_found", fake)
    assert any(r.status == "ok" and r.score == INJECTED_SCORE for r in rows)


def test_clean_responses_are_not_flagged(tmp_path: Path) -> None:
    negatives = [c["text"] for c in CASES if not c["expected"]]
    rows = _judge_rows(tmp_path, "echo_found", negatives)
    assert all(not r.flags and r.injection_cues == [] for r in rows)
    assert all(r.score in (None, OWN_SCORE) for r in rows)
