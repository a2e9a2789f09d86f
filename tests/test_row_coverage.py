"""Coverage of per-sample rows: missing keys in expected order, every place of a duplicate,
the first place of an unexpected key, and the texts that name them."""

from __future__ import annotations

from pathlib import Path

from parakh.row_coverage import Where, check, duplicates_text, key_text, some_keys

A, B = Path("a.jsonl"), Path("b.jsonl")


def test_a_complete_run_covers_every_key_once() -> None:
    coverage = check([("q1",), ("q2",)], [(("q2",), Where(A, 1)), (("q1",), Where(A, 2))])
    assert coverage.complete and coverage.rows_text == "2 of 2 rows"
    assert not coverage.missing and not coverage.duplicates and not coverage.unexpected


def test_missing_duplicate_and_unexpected_keys_with_their_places() -> None:
    expected = [(f"q{i}", "m", "chrf") for i in range(5)]
    rows = [
        (("q0", "m", "chrf"), Where(A, 1)),
        (("q2", "m", "chrf"), Where(A, 2)),
        (("q0", "m", "chrf"), Where(A, 3)),
        (("q9", "m", "chrf"), Where(A, 4)),
        (("q9", "m", "chrf"), Where(B, 7)),
    ]
    coverage = check(expected, rows)
    assert not coverage.complete
    assert coverage.missing == [("q1", "m", "chrf"), ("q3", "m", "chrf"), ("q4", "m", "chrf")]
    assert coverage.expected == 5 and coverage.covered == 2
    assert coverage.duplicates == {
        ("q0", "m", "chrf"): [Where(A, 1), Where(A, 3)],
        ("q9", "m", "chrf"): [Where(A, 4), Where(B, 7)],
    }
    assert coverage.unexpected == {("q9", "m", "chrf"): Where(A, 4)}
    text = duplicates_text(coverage, "key")
    assert text.startswith("key (q0, m, chrf) has 2 rows (lines 1 and 3); 1 more keys")
    assert "(q9, m, chrf) (a.jsonl line 4, b.jsonl line 7)" in text


def test_expected_keys_given_twice_count_once() -> None:
    coverage = check([("q1",), ("q1",)], [])
    assert coverage.expected == 1 and coverage.missing == [("q1",)]


def test_texts_name_a_few_keys_and_count_the_rest() -> None:
    assert key_text(("demo-071",)) == "'demo-071'"
    assert key_text(("demo-071", "smollm2", "chrf")) == "(demo-071, smollm2, chrf)"
    keys = [(f"q{i}",) for i in range(8)]
    assert some_keys(keys) == "'q0', 'q1', 'q2', 'q3', 'q4' and 3 more"
    assert some_keys(keys[:2]) == "'q0', 'q1'"


def test_check_codes_gives_what_check_gives() -> None:
    """Keys coded as numbers: the same missing, duplicated and unexpected keys, places, order."""
    import numpy as np

    from parakh.row_coverage import check_codes

    rng = np.random.default_rng(19)
    expected = rng.permutation(40)[:30]
    codes = rng.integers(0, 50, size=60)
    path = Path("rows.jsonl")
    old = check(
        [(str(c),) for c in expected.tolist()],
        [((str(c),), Where(path, i + 1)) for i, c in enumerate(codes.tolist())],
    )
    new = check_codes(expected, codes, lambda c: (str(c),), lambda i: Where(path, i + 1))
    assert new == old and new.duplicates and new.unexpected and new.missing
    assert list(new.duplicates) == list(old.duplicates)
    assert list(new.unexpected) == list(old.unexpected)
