"""Per-hop round-trip filtering (the INDIC QA BENCHMARK's §2.2: English -> Hindi kept on its
Hindi -> English back-translation, then Hindi -> each language kept on its back-translation into
Hindi) against Parakh's end-to-end variant (one trip back, target -> Hindi -> English)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sacrebleu.metrics import CHRF

from parakh.cli import main
from parakh.errors import ConfigError
from parakh.io import write_jsonl
from parakh.schema import Question
from parakh.translation.roundtrip import report, round_trip
from parakh.translation.service import TranslationService
from tests.translation.fakes import TableTranslator

# Item "hop": its English -> Hindi hop comes back as a poor English sentence, yet the whole way
# back from Tamil (through a slightly different Hindi) gives the English exactly.
HOP_EN = "Do not wash your head for ten days after the operation."
HOP_HI = "ऑपरेशन के बाद दस दिन तक सिर न धोएँ।"
HOP_HI_BACK = "ऑपरेशन के बाद दस दिनों तक सिर न धोएँ।"  # Tamil -> Hindi: close to HOP_HI
POOR_EN = "Bananas grow in warm places."
# Item "trip": each hop comes back well, but the trip back through Hindi drifts.
TRIP_EN = "Put the eye drops four times a day."
TRIP_HI = "दिन में चार बार आँख में ड्रॉप डालें।"
TRIP_HI_BACK = "दिन में चार बार आँखों में ड्रॉप डालें।"

TABLES = {
    ("eng_Latn", "hin_Deva"): {HOP_EN: HOP_HI, TRIP_EN: TRIP_HI},
    ("hin_Deva", "eng_Latn"): {
        HOP_HI: POOR_EN,  # the first hop's own check fails
        HOP_HI_BACK: HOP_EN,  # the end-to-end way back is perfect
        TRIP_HI: TRIP_EN,
        TRIP_HI_BACK: POOR_EN,  # the end-to-end way back drifts
    },
    ("hin_Deva", "tam_Taml"): {HOP_HI: "T-hop", TRIP_HI: "T-trip"},
    ("tam_Taml", "hin_Deva"): {"T-hop": HOP_HI_BACK, "T-trip": TRIP_HI_BACK},
}
ITEMS = [
    Question(id="hop", text=HOP_EN, language="en"),
    Question(id="trip", text=TRIP_EN, language="en"),
]


def _chrf(hypothesis: str, reference: str) -> float:
    return CHRF().sentence_score(hypothesis, [reference]).score


def _service() -> TranslationService:
    return TranslationService(TableTranslator(TABLES), None, segment_sentences=False)


def test_the_scripted_texts_sit_on_the_sides_of_the_threshold_they_are_meant_to() -> None:
    assert _chrf(POOR_EN, HOP_EN) < 50 and _chrf(POOR_EN, TRIP_EN) < 50
    assert _chrf(HOP_HI_BACK, HOP_HI) >= 50 and _chrf(TRIP_HI_BACK, TRIP_HI) >= 50


def test_an_item_passing_end_to_end_but_failing_a_hop_is_dropped_per_hop() -> None:
    per_hop, kept_per_hop = round_trip(_service(), ITEMS, ["ta"], pivot="hi")
    end_to_end, kept_end_to_end = round_trip(
        _service(), ITEMS, ["ta"], pivot="hi", filtering="end_to_end"
    )
    assert [(r.id, r.status) for r in per_hop] == [("hop", "dropped"), ("trip", "kept")]
    assert [(r.id, r.status) for r in end_to_end] == [("hop", "kept"), ("trip", "dropped")]
    assert [q.id for q in kept_per_hop["ta"]] == ["trip-ta"]
    assert [q.id for q in kept_end_to_end["ta"]] == ["hop-ta"]
    hop_row = per_hop[0]
    assert hop_row.reason == f"text: en->hi round-trip chrF {_chrf(POOR_EN, HOP_EN):.2f} < 50"
    assert end_to_end[0].round_trip_chrf == 100.0
    assert kept_per_hop["ta"][0].meta["round_trip_filtering"] == "per_hop"


def test_each_hop_is_scored_against_the_text_it_left_from() -> None:
    rows, _ = round_trip(_service(), ITEMS, ["ta"], pivot="hi")
    (field,) = rows[1].fields
    first, second = field.hops
    assert (first.hop, first.translation, first.back_translation) == ("en->hi", TRIP_HI, TRIP_EN)
    assert first.chrf == 100.0
    assert (second.hop, second.translation, second.back_translation) == (
        "hi->ta",
        "T-trip",
        TRIP_HI_BACK,
    )
    assert second.chrf == pytest.approx(_chrf(TRIP_HI_BACK, TRIP_HI), abs=1e-3)
    assert field.chrf == second.chrf == rows[1].round_trip_chrf  # the lowest hop
    assert (field.pivot_translation, field.translation) == (TRIP_HI, "T-trip")
    assert field.back_translation == TRIP_EN  # back in English: the first hop's check


def test_a_failed_back_translation_of_a_hop_is_an_error_row_naming_field_and_hop() -> None:
    tables = {k: v for k, v in TABLES.items() if k != ("tam_Taml", "hin_Deva")}
    service = TranslationService(TableTranslator(tables), None, segment_sentences=False)
    rows, kept = round_trip(service, ITEMS[1:], ["ta"], pivot="hi")
    assert rows[0].status == "error" and kept["ta"] == []
    assert rows[0].reason == "text: ta->hi: cannot translate 'T-trip'"


def test_without_a_pivot_both_filters_are_the_one_round_trip() -> None:
    for filtering in ("per_hop", "end_to_end"):
        rows, _ = round_trip(_service(), ITEMS, ["hi"], filtering=filtering)  # type: ignore[arg-type]
        assert [r.status for r in rows] == ["dropped", "kept"]
        assert [r.fields[0].back_translation for r in rows] == [POOR_EN, TRIP_EN]


def test_the_report_names_the_filter_and_an_unknown_one_is_refused() -> None:
    rows, _ = round_trip(_service(), ITEMS, ["ta"], pivot="hi")
    summary = report(rows, "table", 50.0, pivot="hi")
    assert summary["filtering"] == "per_hop" and "each hop" in summary["metric"]
    assert summary["languages"]["ta"]["dropped_by_field"] == {"text": 1}
    with pytest.raises(ConfigError, match="round-trip filtering 'both'"):
        round_trip(_service(), ITEMS, ["ta"], filtering="both")  # type: ignore[arg-type]


def _translate_dataset(*args: str) -> int:
    with pytest.raises(SystemExit) as done:
        main(["translate-dataset", *args])
    return int(done.value.code or 0)


def test_the_command_filters_per_hop_by_default_and_end_to_end_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "questions.jsonl"
    write_jsonl(source, [Question(id="w", text="water", language="en")])
    extra = tmp_path / "entries.yaml"
    extra.write_text("hi:\n  पानी: water\n", encoding="utf-8")
    for flag, expected in ((None, "per_hop"), ("end-to-end", "end_to_end")):
        out = tmp_path / expected
        code = _translate_dataset(
            "--input", str(source), "--languages", "hi", "--out", str(out),
            *(["--filter", flag] if flag else []),
            "translator=dictionary_demo", f"translator.path={extra}",
            f"paths.cache={tmp_path / 'cache.sqlite'}",
        )  # fmt: skip
        assert code == 0
        assert json.loads((out / "report.json").read_text())["filtering"] == expected
        (row,) = [json.loads(line) for line in (out / "roundtrip.jsonl").open()]
        assert (row["status"], row["filtering"]) == ("kept", expected)
    assert _translate_dataset("--languages", "hi", "--filter", "both") == 2
    assert "invalid choice: 'both'" in capsys.readouterr().err
