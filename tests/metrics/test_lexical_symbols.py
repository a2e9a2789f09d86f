"""Texts that normalisation empties (only emoji or punctuation): identical texts score full
marks on every lexical metric, different ones score 0 (#16: token F1 and ROUGE-L gave 0 to
identical emoji strings while exact match and chrF gave full marks; exact match gave 1 to two
different emoji)."""

from __future__ import annotations

import pytest

from parakh.metrics.lexical import chrf, exact_match, rouge_l, token_f1

METRICS = [exact_match, token_f1, rouge_l]


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("text", ["😀👍", "!!!", "🙏 🙏", "…"])
def test_identical_symbol_only_texts_score_full_marks(metric, text: str) -> None:
    assert metric(text, [text], "hi") == 1.0
    assert chrf(text, [text], "hi") == pytest.approx(100.0)


@pytest.mark.parametrize("metric", METRICS)
def test_different_symbol_only_texts_score_zero(metric) -> None:
    assert metric("😀", ["😢"], None) == 0.0
    assert metric("😀", ["yes"], None) == 0.0
    assert metric("😀", ["😢", "😀"], None) == 1.0  # the best reference counts
