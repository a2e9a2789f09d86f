"""Round-trip chrF filtering: known scores just above and just below the threshold, reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sacrebleu.metrics import CHRF

from parakh.config.translator import DictionaryTranslatorConfig
from parakh.schema import Question
from parakh.translation.roundtrip import distribution, passes, report, round_trip
from parakh.translation.service import TranslationService, make_service
from tests.translation.fakes import TableTranslator

SOURCE = "Use the eye drops four times a day for two weeks."
JUST_ABOVE = "Use the medicine four times a day for a fortnight."  # chrF 50.47
JUST_BELOW = "Put the eye medicine four times a day for fourteen days."  # chrF 49.94
SOURCE_B = "Do not wash your head for ten days."


def _chrf(hypothesis: str, reference: str) -> float:
    return CHRF().sentence_score(hypothesis, [reference]).score


def test_the_pairs_have_the_known_scores() -> None:
    assert _chrf(JUST_ABOVE, SOURCE) == pytest.approx(50.472, abs=1e-3)
    assert _chrf(JUST_BELOW, SOURCE) == pytest.approx(49.944, abs=1e-3)
    assert passes(50.0, 50.0) and not passes(49.9999, 50.0)


def _service() -> TranslationService:
    """hi: each item's text goes to a Hindi stand-in, which comes back as a scripted English."""
    tables = {
        ("eng_Latn", "hin_Deva"): {SOURCE: "H-above", SOURCE_B: "H-below", "Ten days.": "H-ok"},
        ("hin_Deva", "eng_Latn"): {
            "H-above": JUST_ABOVE,
            "H-below": JUST_BELOW,
            "H-ok": "Ten days.",
        },
        ("eng_Latn", "tam_Taml"): {SOURCE: "T1", "Ten days.": "T2"},
        ("tam_Taml", "eng_Latn"): {"T1": SOURCE},  # T2 has no way back: an error row
    }
    return TranslationService(TableTranslator(tables), None, segment_sentences=False)


ITEMS = [
    Question(id="a", text=SOURCE, language="en", reference_answers=["Ten days."]),
    Question(id="b", text=SOURCE, language="en"),
    Question(id="c", text="आँख", language="hi"),
]


def test_scores_are_the_lowest_field_and_kept_items_carry_their_provenance() -> None:
    items = [
        Question(id="above", text=SOURCE, language="en", reference_answers=["Ten days."]),
        Question(id="below", text=SOURCE_B, language="en"),
    ]
    service = _service()
    rows, kept = round_trip(service, items, ["hi"], threshold=50.0)
    above, below = rows
    assert above.status == "kept"
    assert above.round_trip_chrf == pytest.approx(50.472, abs=1e-3)  # min(question, answer)
    assert [f.chrf for f in above.fields] == [pytest.approx(50.472, abs=1e-3), 100.0]
    assert below.status == "dropped"
    assert below.round_trip_chrf == pytest.approx(_chrf(JUST_BELOW, SOURCE_B), abs=1e-3)
    assert "round-trip chrF" in (below.reason or "")
    (translated,) = kept["hi"]
    assert translated.id == "above-hi" and translated.language == "hi"
    assert translated.text == "H-above" and translated.reference_answers == ["H-ok"]
    assert translated.meta["source_id"] == "above"
    assert translated.meta["round_trip_chrf"] == above.round_trip_chrf


def test_pairs_just_above_and_just_below_the_threshold_land_on_the_right_side() -> None:
    """The same text, two translators: one round trip scores 50.47, the other 49.94."""
    for back, expected in ((JUST_ABOVE, "kept"), (JUST_BELOW, "dropped")):
        tables = {("eng_Latn", "hin_Deva"): {SOURCE: "H"}, ("hin_Deva", "eng_Latn"): {"H": back}}
        service = TranslationService(TableTranslator(tables), None, segment_sentences=False)
        (row,), _ = round_trip(service, [Question(id="x", text=SOURCE, language="en")], ["hi"])
        assert row.status == expected, (back, row.round_trip_chrf)


def test_errors_and_skips_are_rows_and_the_report_counts_them() -> None:
    rows, kept = round_trip(_service(), ITEMS, ["ta", "hi"], threshold=50.0)
    status = {(r.language, r.id): r.status for r in rows}
    assert status == {
        ("ta", "a"): "error",  # the answer's back-translation failed
        ("ta", "b"): "kept",
        ("ta", "c"): "error",  # no Hindi->Tamil table
        ("hi", "a"): "kept",
        ("hi", "b"): "kept",
        ("hi", "c"): "skipped",
    }
    err = next(r for r in rows if (r.language, r.id) == ("ta", "a"))
    assert err.reason is not None and err.reason.startswith("reference_answers[0]:")
    summary = report(rows, "table", 50.0)
    ta = summary["languages"]["ta"]
    assert (ta["kept"], ta["dropped"], ta["error"], ta["skipped"]) == (1, 0, 2, 0)
    assert ta["chrf"]["count"] == 1 and ta["chrf"]["median"] == 100.0
    assert summary["languages"]["hi"]["kept_share"] == 1.0
    json.dumps(summary)  # serialisable as is
    assert [q.id for q in kept["hi"]] == ["a-hi", "b-hi"]


def test_distribution() -> None:
    d = distribution([10.0, 20.0, 30.0, 40.0, 95.0])
    assert (d["count"], d["min"], d["median"], d["max"]) == (5, 10.0, 30.0, 95.0)
    assert d["p25"] == 20.0 and d["histogram"]["90-100"] == 1 and d["histogram"]["10-20"] == 1
    assert distribution([]) == {"count": 0}


def test_dictionary_translator_end_to_end(tmp_path: Path) -> None:
    """Controlled loss through the phrase table: "eye drops" comes back as "eye medicine"."""
    cfg = DictionaryTranslatorConfig(
        name="dict",
        kind="dictionary",
        entries={"hi": {"आँख": "eye", "दवा": "drops", "आँख दवा": "eye medicine", "चार": "four"}},
    )
    items = [
        Question(id="ok", text="four drops", language="en"),
        Question(id="lossy", text="eye drops", language="en"),
    ]
    rows, kept = round_trip(make_service(cfg, None), items, ["hi"])
    assert [(r.id, r.status) for r in rows] == [("ok", "kept"), ("lossy", "dropped")]
    assert rows[1].fields[0].translation == "आँख दवा"
    assert rows[1].fields[0].back_translation == "eye medicine"
    assert rows[1].round_trip_chrf == pytest.approx(_chrf("eye medicine", "eye drops"), abs=1e-3)
    assert [q.text for q in kept["hi"]] == ["चार दवा"]
