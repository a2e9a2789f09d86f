"""NoMIRACL passages cut to a word budget (`options.passage_tokens`), both layouts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parakh.datasets import load_dataset
from parakh.datasets.nomiracl import NoMiraclOptions, cut_to_words
from tests.datasets.test_nomiracl_upstream import FIXTURE


def test_cut_keeps_the_text_before_the_cut_as_it_stands() -> None:
    assert cut_to_words("a  b\tc d", 3) == "a  b\tc"
    assert cut_to_words(" a b ", 2) == " a b "  # not over budget: unchanged, spaces kept
    assert cut_to_words("a b c", None) == "a b c"


def test_default_budget_is_375_words() -> None:
    assert NoMiraclOptions().passage_tokens == 375
    with pytest.raises(ValueError, match="passage_tokens"):
        NoMiraclOptions(passage_tokens=0)


def _parsed_layout(root: Path, words: int) -> Path:
    root.mkdir()
    text = "Title: " + " ".join(f"w{i}" for i in range(words))
    (root / "passages.jsonl").write_text(
        json.dumps({"language": "hi", "docid": "1#0", "passage": text}) + "\n"
        + json.dumps({"language": "hi", "docid": "1#1", "passage": "Short: two words"}) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    query = {
        "language": "hi", "split": "test", "subset": "non_relevant", "query_id": "5#0",
        "query": "क्या?", "docids": ["1#0", "1#1"], "template": "vanilla", "results": {},
    }  # fmt: skip
    (root / "queries.jsonl").write_text(json.dumps(query) + "\n", encoding="utf-8")
    return root


def test_a_long_passage_is_cut_and_its_question_says_so(tmp_path: Path) -> None:
    root = _parsed_layout(tmp_path / "nm", words=20)
    (q,) = load_dataset("nomiracl", root, {"passage_tokens": 5}).questions
    assert q.contexts[0].text == "Title: w0 w1 w2 w3"  # "Title:" is the first word
    assert q.contexts[1].text == "Short: two words"
    assert q.meta["cut_passages"] == ["1#0"]
    whole = load_dataset("nomiracl", root, {"passage_tokens": None}).questions[0]
    assert whole.contexts[0].text.endswith("w19") and "cut_passages" not in whole.meta


def test_the_upstream_fixture_is_within_the_default_budget() -> None:
    """Passages the authors already cut stay byte-identical under the default budget."""
    default = load_dataset("nomiracl", FIXTURE, {}).questions
    whole = load_dataset("nomiracl", FIXTURE, {"passage_tokens": None}).questions
    assert [q.model_dump() for q in default] == [q.model_dump() for q in whole]
    cut = load_dataset("nomiracl", FIXTURE, {"passage_tokens": 2}).questions
    assert any("cut_passages" in q.meta for q in cut)
    assert all(len(p.text.split()) <= 2 for q in cut for p in q.contexts)
