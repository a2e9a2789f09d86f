"""What a canonical row may hold (parakh.datasets.limits): each field against its own limit,
what truncation cuts and records, what it never cuts, and control characters anywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.config.dataset import LengthLimits
from parakh.datasets import Origin, RowError, load_dataset
from parakh.datasets.limits import TextRules
from parakh.schema import HumanJudgment, KBDocument, Passage, Question

HERE = Origin("q.jsonl", 7)
SMALL = LengthLimits(id=10, question=20, reference_answer=30, context=40, kb_document=50,
                     judged_answer=30, other=25)  # fmt: skip


def _question(**fields: object) -> Question:
    return Question.model_validate({"id": "q1", "text": "When?", "language": "en", **fields})


@pytest.mark.parametrize(
    ("row", "field", "limit"),
    [
        (_question(id="q" * 11), "id", "dataset.max_chars.id"),
        (_question(text="w" * 21), "text", "dataset.max_chars.question"),
        (_question(reference_answers=["ok", "a" * 31]), "reference_answers[1]", "reference_answer"),
        (_question(contexts=[Passage(id="p", text="c" * 41)]), "contexts[0].text", "context"),
        (_question(contexts=[Passage(id="p" * 11, text="c")]), "contexts[0].id", "max_chars.id"),
        (_question(meta={"focus": "m" * 26}), "meta.focus", "dataset.max_chars.other"),
        (_question(meta={"k" * 26: 1}), "meta." + "k" * 26, "dataset.max_chars.other"),
        (KBDocument(id="d", text="k" * 51, source="kb.md", kind="raw"), "text", "kb_document"),
    ],
)
def test_each_field_is_held_to_its_own_limit(row: object, field: str, limit: str) -> None:
    with pytest.raises(RowError) as caught:
        TextRules(SMALL).apply(row, HERE)  # type: ignore[type-var]
    error = caught.value
    assert (error.path, error.line, error.field, error.reason) == ("q.jsonl", 7, field, "too_long")
    assert limit in str(error)


def test_truncate_cuts_main_texts_and_records_each_cut() -> None:
    rules = TextRules(SMALL, "truncate")
    question = _question(
        text="w" * 25,
        reference_answers=["a" * 35],
        contexts=[Passage(id="p", text="c" * 45)],
    )
    cut = rules.apply(question, HERE)
    assert (len(cut.text), len(cut.reference_answers[0]), len(cut.contexts[0].text)) == (20, 30, 40)
    assert cut.meta["truncated"] == {"text": 25, "reference_answers[0]": 35, "contexts[0].text": 45}
    assert [(c.field, c.chars, c.limit) for c in rules.cuts] == [
        ("text", 25, 20), ("reference_answers[0]", 35, 30), ("contexts[0].text", 45, 40)
    ]  # fmt: skip
    judgment = HumanJudgment(id="j", question_id="q1", answer_id="a", answer="x" * 31, grade=1,
                             scale_min=1, scale_max=4)  # fmt: skip
    assert rules.apply(judgment, HERE).answer == "x" * 30


@pytest.mark.parametrize(
    "row", [_question(id="q" * 11), _question(meta={"focus": "m" * 26})], ids=["id", "meta"]
)
def test_truncate_never_cuts_an_id_or_another_value(row: Question) -> None:
    with pytest.raises(RowError, match="too_long|over the limit"):
        TextRules(SMALL, "truncate").apply(row, HERE)


def test_control_characters_anywhere_but_whitespace() -> None:
    rules = TextRules()
    assert rules.apply(_question(text="a\tb\nc\r\nd"), HERE).text == "a\tb\nc\r\nd"
    for row, field in [
        (_question(text="a\x00b"), "text"),
        (_question(meta={"note": ["ok", "\x1b"]}), "meta.note[1]"),
        (_question(categories=["code\x1bmixed"]), "categories[0]"),
    ]:
        with pytest.raises(RowError) as caught:
            rules.apply(row, HERE)
        assert caught.value.field == field and caught.value.reason == "control_character"


def test_a_bad_judgment_adds_nothing_in_lenient_mode(tmp_path: Path) -> None:
    rows = [
        {"Question_ID": "1", "NLM-Summary": "Is it safe?", "Answer_ID": "A1", "Answer": "Yes.",
         "score": 3},
        {"Question_ID": "2", "NLM-Summary": "Dose?", "Answer_ID": "A2", "Answer": "Two\x00.",
         "score": 2},
    ]  # fmt: skip
    (tmp_path / "judgments.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    loaded = load_dataset("human_judgments", tmp_path, strict=False)
    assert [q.id for q in loaded.questions] == ["1"]
    assert [j.question_id for j in loaded.judgments] == ["1"]
    (rejected,) = loaded.rejected
    assert (rejected.line, rejected.field, rejected.reason) == (2, "answer", "control_character")


def test_a_form_feed_from_a_pdf_is_whitespace_not_an_error() -> None:
    """Text extracted from PDFs carries a form feed at each page break (and sometimes a
    vertical tab): whitespace, kept; a NUL or an escape is refused."""
    text = "Page one.\x0cPage two.\x0bEnd."
    assert TextRules().apply(_question(text=text), HERE).text == text
