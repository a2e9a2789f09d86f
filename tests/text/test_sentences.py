"""Sentence splitting: Indic terminators always end a sentence; a full stop only when it is one."""

from __future__ import annotations

import pytest

from parakh.text.sentences import split_sentences, split_sentences_with_offsets

CASES = [
    ("Wash your hands. Then apply the drops.", ["Wash your hands.", "Then apply the drops."]),
    ("ऑपरेशन के बाद आँख मत रगड़ें। दवा डालें।", ["ऑपरेशन के बाद आँख मत रगड़ें।", "दवा डालें।"]),
    ("पहला वाक्य॥दूसरा वाक्य", ["पहला वाक्य॥", "दूसरा वाक्य"]),  # double danda, no space
    ("کیا یہ ٹھیک ہے؟ جی ہاں۔", ["کیا یہ ٹھیک ہے؟", "جی ہاں۔"]),
    ("Use 2.5 ml twice. Stop after 7 days.", ["Use 2.5 ml twice.", "Stop after 7 days."]),
    (
        "Dr. Rao will see you. Bring e.g. your reports.",
        ["Dr. Rao will see you.", "Bring e.g. your reports."],
    ),
    ("See www.example.org for details.", ["See www.example.org for details."]),
    ("Really? Yes! Fine.", ["Really?", "Yes!", "Fine."]),
    ("Title line\nBody text without a stop", ["Title line", "Body text without a stop"]),
    ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
    ("   ", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


@pytest.mark.parametrize(("text", "_expected"), CASES)
def test_offsets_point_back_into_the_text(text: str, _expected: list[str]) -> None:
    spans = split_sentences_with_offsets(text)
    assert all(0 <= s < e <= len(text) for s, e in spans)
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))  # in order, no overlap
    assert all(not text[s].isspace() and not text[e - 1].isspace() for s, e in spans)
