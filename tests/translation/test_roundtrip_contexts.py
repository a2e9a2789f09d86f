"""Dataset translation of context passages and through a pivot language (context, question and
answer translated, English -> Hindi -> the other languages, every field filtered on its
round-trip chrF; per-hop filtering: tests/translation/test_roundtrip_per_hop.py)."""

from __future__ import annotations

import pytest

from parakh.schema import Passage, Question
from parakh.text.languages import LanguageTag
from parakh.translation.roundtrip import hops, report, round_trip
from parakh.translation.service import TranslationService
from tests.translation.fakes import TableTranslator

Q = "When may I wash my head?"
A = "After ten days."
C1 = "Keep the eye dry. Do not wash your head for ten days."
C2 = "Use the drops four times a day."
EN_HI = {Q: "hQ", A: "hA", "Keep the eye dry.": "h1।", "Do not wash your head for ten days.": "h2।"}
EN_HI |= {C2: "h3।"}
HI_EN = {v: k for k, v in EN_HI.items()}


def _item(**update: object) -> Question:
    q = Question(
        id="q1",
        text=Q,
        language="en",
        reference_answers=[A],
        contexts=[
            Passage(id="p1", text=C1, title="Aftercare", relevant=True),
            Passage(id="p2", text="  "),
            Passage(id="p3", text=C2),
        ],
    )
    return q.model_copy(update=update)


def _service(
    tables: dict[tuple[str, str], dict[str, str]],
) -> tuple[TranslationService, TableTranslator]:
    translator = TableTranslator(tables)
    return TranslationService(translator, None, segment_sentences=True), translator


def test_every_context_sentence_is_translated_and_the_passages_put_back_in_place() -> None:
    service, translator = _service(
        {("eng_Latn", "hin_Deva"): EN_HI, ("hin_Deva", "eng_Latn"): HI_EN}
    )
    rows, kept = round_trip(service, [_item()], ["hi"])
    (row,) = rows
    assert row.status == "kept" and row.round_trip_chrf == 100.0
    assert [f.field for f in row.fields] == [
        "text",
        "reference_answers[0]",
        "contexts[0].text",
        "contexts[2].text",  # the blank passage is not translated and not scored
    ]
    sent_forward = {s for batch in translator.batches for s in batch}
    assert {"Keep the eye dry.", "Do not wash your head for ten days.", C2} <= sent_forward
    (item,) = kept["hi"]
    assert [p.text for p in item.contexts] == ["h1। h2।", "  ", "h3।"]  # sentence gaps kept
    assert (item.contexts[0].id, item.contexts[0].title, item.contexts[0].relevant) == (
        "p1",
        "Aftercare",
        True,
    )
    assert item.meta["contexts_translated"] == 2


def test_a_context_that_fails_its_round_trip_drops_the_item() -> None:
    back = HI_EN | {"h3।": "Put in some medicine."}  # the second passage comes back wrong
    service, _ = _service({("eng_Latn", "hin_Deva"): EN_HI, ("hin_Deva", "eng_Latn"): back})
    rows, kept = round_trip(service, [_item()], ["hi"], threshold=50.0)
    (row,) = rows
    assert row.status == "dropped" and kept["hi"] == []
    assert (row.reason or "").startswith("contexts[2].text: en->hi round-trip chrF")
    scores = {f.field: f.chrf for f in row.fields}
    assert scores["text"] == scores["reference_answers[0]"] == scores["contexts[0].text"] == 100.0
    assert row.round_trip_chrf == scores["contexts[2].text"] < 50.0
    summary = report(rows, "table", 50.0)
    assert summary["languages"]["hi"]["dropped_by_field"] == {"contexts": 1}
    assert summary["contexts"] == "translated" and "context passages" in summary["metric"]


def test_contexts_keep_copies_the_passages_and_leaves_them_out_of_the_filter() -> None:
    tables = {("eng_Latn", "hin_Deva"): {Q: "hQ", A: "hA"}, ("hin_Deva", "eng_Latn"): HI_EN}
    service, translator = _service(tables)
    rows, kept = round_trip(service, [_item()], ["hi"], contexts=False)
    assert rows[0].status == "kept"
    assert [f.field for f in rows[0].fields] == ["text", "reference_answers[0]"]
    assert kept["hi"][0].contexts == _item().contexts
    assert "contexts_translated" in kept["hi"][0].meta  # 0 of 3: said, not hidden
    assert kept["hi"][0].meta["contexts_translated"] == 0
    assert all(C2 not in batch for batch in translator.batches)


EN_HI_TA = {"hQ": "tQ", "hA": "tA", "h1।": "t1.", "h2।": "t2.", "h3।": "t3."}


def test_end_to_end_goes_through_hindi_both_ways_and_records_the_pivot_text() -> None:
    tables = {
        ("eng_Latn", "hin_Deva"): EN_HI,
        ("hin_Deva", "tam_Taml"): EN_HI_TA,
        ("tam_Taml", "hin_Deva"): {v: k for k, v in EN_HI_TA.items()},
        ("hin_Deva", "eng_Latn"): HI_EN,
    }
    service, _ = _service(tables)
    rows, kept = round_trip(service, [_item()], ["ta", "hi"], pivot="hi", filtering="end_to_end")
    ta, hi = rows
    assert (ta.status, ta.pivot_language, hi.pivot_language) == ("kept", "hi", None)
    question = ta.fields[0]
    assert (question.pivot_translation, question.translation) == ("hQ", "tQ")
    assert (question.pivot_back_translation, question.back_translation) == ("hQ", Q)
    assert [p.text for p in kept["ta"][0].contexts] == ["t1. t2.", "  ", "t3."]
    assert kept["ta"][0].meta["pivot_language"] == "hi"
    assert "pivot_language" not in kept["hi"][0].meta  # Hindi itself: direct
    # the tables have no English <-> Tamil pair: a direct call would have made an error row


def test_a_failure_at_the_pivot_hop_is_an_error_row_naming_field_and_hop() -> None:
    tables = {
        ("eng_Latn", "hin_Deva"): EN_HI,
        ("hin_Deva", "tam_Taml"): {k: v for k, v in EN_HI_TA.items() if k != "h3।"},
    }
    service, _ = _service(tables)
    rows, kept = round_trip(service, [_item()], ["ta"], pivot="hi", filtering="end_to_end")
    assert rows[0].status == "error" and kept["ta"] == []
    assert rows[0].reason == "text: ta->hi: cannot translate 'tQ'"


def test_hops() -> None:
    en, hi, ta = (LanguageTag.of(c) for c in ("en", "hi", "ta"))
    assert hops(en, ta, hi) == [en, hi, ta]
    assert hops(en, hi, hi) == [en, hi] and hops(hi, ta, hi) == [hi, ta]
    assert hops(en, ta, None) == [en, ta]


def test_unknown_pivot_is_a_config_error() -> None:
    from parakh.errors import ConfigError

    service, _ = _service({})
    with pytest.raises(ConfigError, match="Unknown language 'hindee'"):
        round_trip(service, [_item()], ["ta"], pivot="hindee")
