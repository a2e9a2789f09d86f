"""`parakh translate-dataset` on a tiny random NLLB checkpoint built in the test (no download):
every context sentence reaches the model, through the Hindi pivot, and the round-trip chrF
filter covers the question, the answers and every passage.

The model's output is deterministic gibberish, so the scores are whatever they are; the test
checks where texts went and that the filter was computed over all of them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from parakh.cli import main
from parakh.io import read_jsonl, write_jsonl
from parakh.schema import Passage, Question
from parakh.text.languages import LanguageTag
from parakh.text.sentences import segment
from parakh.translation.base import Translated
from parakh.translation.nllb import NLLBTranslator
from tests.translation.tiny_models import build_nllb_like

pytestmark = pytest.mark.slow  # imports torch (~10 s on 2 cores)

CONTEXT_1 = "Use the eye drops four times a day. Do not wash your head for ten days."
CONTEXT_2 = "Use the eye drops four times a day."


@pytest.fixture(scope="module")
def tiny_nllb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seed 1: with the shared fixture's seed 0 the random model ends some Tamil outputs at
    once (an empty translation, an error row), which would test nothing about the filter."""
    pytest.importorskip("transformers")
    return build_nllb_like(tmp_path_factory.mktemp("tiny_nllb_seed1") / "nllb", seed=1)


def _items() -> list[Question]:
    return [
        Question(
            id="q1",
            text="Do not wash your head for ten days.",
            language="en",
            reference_answers=["four times a day"],
            contexts=[Passage(id="p1", text=CONTEXT_1), Passage(id="p2", text=CONTEXT_2)],
        ),
        Question(
            id="q2",
            text="Use the eye drops.",
            language="en",
            reference_answers=["ten days"],
            contexts=[Passage(id="p3", text=CONTEXT_1)],
        ),
    ]


def _run(tmp_path: Path, tiny_nllb: Path, *extra: str) -> Path:
    source = tmp_path / "questions.jsonl"
    write_jsonl(source, _items())
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as done:
        main(
            [
                "translate-dataset",
                "--input", str(source), "--languages", "ta", "--pivot", "hi",
                "--out", str(out), *extra,
                "translator=nllb", f"translator.model.path={tiny_nllb}",
                "translator.num_beams=1", "translator.max_new_tokens=5",
                f"paths.cache={tmp_path / 'cache.sqlite'}",
            ]
        )  # fmt: skip
    assert done.value.code == 0
    return out


def test_every_context_segment_is_translated_and_every_field_is_filtered(
    tiny_nllb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, str, list[str], list[str | None]]] = []
    original = NLLBTranslator.translate_batch

    def spy(
        self: NLLBTranslator, sentences: Sequence[str], source: LanguageTag, target: LanguageTag
    ) -> list[Translated]:
        results = original(self, sentences, source, target)
        calls.append((source.code, target.code, list(sentences), [r.text for r in results]))
        return results

    monkeypatch.setattr(NLLBTranslator, "translate_batch", spy)
    out = _run(tmp_path, tiny_nllb, "--threshold", "0")

    sent = {(a, b): {s for x, y, batch, _ in calls if (x, y) == (a, b) for s in batch} for a, b in
            [("en", "hi"), ("hi", "ta"), ("ta", "hi"), ("hi", "en"), ("en", "ta")]}  # fmt: skip
    context_sentences = set(segment(CONTEXT_1).sentences) | set(segment(CONTEXT_2).sentences)
    assert len(context_sentences) == 2 and context_sentences <= sent[("en", "hi")]
    assert sent[("en", "ta")] == set()  # never direct: always through Hindi
    assert sent[("hi", "ta")] and sent[("ta", "hi")] and sent[("hi", "en")]

    rows = [json.loads(line) for line in (out / "roundtrip.jsonl").read_text().splitlines()]
    assert [(r["id"], r["status"], r["pivot_language"]) for r in rows] == [
        ("q1", "kept", "hi"),
        ("q2", "kept", "hi"),
    ]
    q1_fields = [f["field"] for f in rows[0]["fields"]]
    assert q1_fields == ["text", "reference_answers[0]", "contexts[0].text", "contexts[1].text"]
    for row in rows:
        scores = [f["chrf"] for f in row["fields"]]
        assert all(isinstance(s, float) for s in scores)
        assert row["round_trip_chrf"] == min(scores)  # the filter's score is over every field
        for f in row["fields"]:
            assert f["pivot_translation"] and f["translation"] and f["back_translation"]
    # a passage's Hindi text is its sentences' Hindi translations, joined in order
    hindi = {
        s: t
        for x, y, batch, outputs in calls
        if (x, y) == ("en", "hi")
        for s, t in zip(batch, outputs, strict=True)
    }
    first, second = segment(CONTEXT_1).sentences
    assert rows[0]["fields"][2]["pivot_translation"] == f"{hindi[first]} {hindi[second]}"
    assert rows[0]["fields"][3]["pivot_translation"] == hindi[CONTEXT_2]

    kept = read_jsonl(out / "ta" / "questions.jsonl", Question)
    assert [q.id for q in kept] == ["q1-ta", "q2-ta"]
    assert [p.text for p in kept[0].contexts] == [
        rows[0]["fields"][2]["translation"],
        rows[0]["fields"][3]["translation"],
    ]
    assert kept[0].contexts[0].text != CONTEXT_1
    report = json.loads((out / "report.json").read_text())
    assert (report["pivot_language"], report["contexts"], report["threshold"]) == (
        "hi",
        "translated",
        0.0,
    )


def test_at_the_papers_threshold_a_field_below_50_drops_the_item(
    tiny_nllb: Path, tmp_path: Path
) -> None:
    first = _run(tmp_path / "a", tiny_nllb, "--threshold", "0")
    rows = [json.loads(line) for line in (first / "roundtrip.jsonl").read_text().splitlines()]
    out = _run(tmp_path / "b", tiny_nllb)  # default threshold: 50, as in the paper
    again = [json.loads(line) for line in (out / "roundtrip.jsonl").read_text().splitlines()]
    for before, row in zip(rows, again, strict=True):
        worst = min(before["fields"], key=lambda f: f["chrf"])
        expected = "kept" if worst["chrf"] >= 50 else "dropped"
        assert row["status"] == expected
        if expected == "dropped":
            # per hop (the default): the reason names the field, then the hop
            assert row["reason"].startswith(f"{worst['field']}: ")
            assert "round-trip chrF" in row["reason"]
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    assert report["threshold"] == 50.0
    ta = report["languages"]["ta"]
    assert ta["kept"] + ta["dropped"] == 2
    assert sum(ta["dropped_by_field"].values()) == ta["dropped"]
