"""PII redaction: a case file of real-looking positives and look-alike negatives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parakh.text.pii import PLACEHOLDERS, PIIPolicy, find_pii, phone_key, redact

CASES: dict[str, Any] = json.loads(
    (Path(__file__).parent / "cases" / "pii.json").read_text(encoding="utf-8")
)
POLICY = PIIPolicy.from_keep_list(CASES["keep"])


def test_the_corpus_is_big_enough() -> None:
    assert len(CASES["positives"]) >= 30
    assert len(CASES["negatives"]) >= 30
    assert len({case["kind"] for case in CASES["positives"]}) == len(PLACEHOLDERS)


@pytest.mark.parametrize("case", CASES["positives"], ids=lambda c: c["text"][:40])
def test_every_positive_is_redacted(case: dict[str, Any]) -> None:
    result = redact(case["text"], POLICY)
    for secret in case["pii"]:
        assert secret not in result.text
    assert PLACEHOLDERS[case["kind"]] in result.text
    assert result.counts[case["kind"]] >= 1


@pytest.mark.parametrize("case", CASES["negatives"], ids=lambda c: c["text"][:40])
def test_no_negative_is_touched(case: dict[str, Any]) -> None:
    assert find_pii(case["text"], POLICY) == []
    assert redact(case["text"], POLICY).text == case["text"]


def test_recall_is_total_and_no_negative_is_redacted() -> None:
    found = sum(
        all(s not in redact(c["text"], POLICY).text for s in c["pii"]) for c in CASES["positives"]
    )
    untouched = sum(redact(c["text"], POLICY).text == c["text"] for c in CASES["negatives"])
    assert found / len(CASES["positives"]) == 1.0
    assert untouched == len(CASES["negatives"])


def test_keep_list_entries_are_real_look_alikes() -> None:
    """Without the keep list the institutional contacts are found: the list is what keeps them."""
    for text in (
        "The 24-hour helpline is 080-4000-1234",
        "call during working hours on 9739270477",
        "call 0806903 8900, or +919945000442",
        "Write to bangalore@sankaraeye.com or info@hospital.org",
    ):
        assert find_pii(text) != []
        assert find_pii(text, POLICY) == []


def test_keep_list_matches_numbers_whatever_their_format() -> None:
    assert phone_key("+91 97392 70477") == phone_key("9739270477") == phone_key("097392-70477")
    policy = PIIPolicy.from_keep_list(["97392 70477"])
    assert redact("call +91-9739270477 or 9845012345", policy).text == (
        "call +91-9739270477 or [PHONE]"
    )


def test_a_kept_domain_does_not_keep_other_domains() -> None:
    policy = PIIPolicy.from_keep_list(["@sankaraeye.com"])
    text = "write to info@sankaraeye.com, not ravi@sankaraeye.com.evil.in"
    assert redact(text, policy).text == "write to info@sankaraeye.com, not [EMAIL]"


def test_spans_are_ordered_and_counted() -> None:
    text = "ravi@gmail.com, 9845012345, ABCPE1234F, 2345 6789 0123"
    result = redact(text)
    assert result.text == "[EMAIL], [PHONE], [PAN], [AADHAAR]"
    assert dict(result.counts) == {"email": 1, "phone": 1, "pan": 1, "aadhaar": 1}
    assert [m.kind for m in find_pii(text)] == ["email", "phone", "pan", "aadhaar"]
