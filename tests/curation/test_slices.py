"""Per-language slices: N of every language, the same for the same seed, stable under additions."""

from __future__ import annotations

from collections import Counter

from parakh.curation.slices import per_language_mask
from parakh.schema import Question


def _questions(spec: dict[str, int], prefix: str = "q") -> list[Question]:
    return [
        Question(id=f"{prefix}-{language}-{i}", text=f"question {i}", language=language)
        for language, n in spec.items()
        for i in range(n)
    ]


def _picked(questions: list[Question], n: int, seed: int) -> list[str]:
    keep = per_language_mask(questions, n, seed)
    return [q.id for q, k in zip(questions, keep, strict=True) if k]


def test_every_language_keeps_n_or_all_it_has() -> None:
    questions = _questions({"hi": 10, "kn": 2, "en": 30})
    picked = _picked(questions, 5, seed=0)
    assert Counter(i.split("-")[1] for i in picked) == {"hi": 5, "kn": 2, "en": 5}
    assert picked == [q.id for q in questions if q.id in set(picked)]  # input order kept


def test_same_seed_same_questions_other_seed_others() -> None:
    questions = _questions({"hi": 40, "en": 40})
    assert _picked(questions, 5, seed=0) == _picked(list(questions), 5, seed=0)
    assert _picked(questions, 5, seed=0) != _picked(questions, 5, seed=1)


def test_unrelated_additions_do_not_change_the_picks() -> None:
    questions = _questions({"hi": 40, "en": 40})
    before = _picked(questions, 5, seed=3)
    more = questions + _questions({"en": 50, "ta": 10}, prefix="new")
    after = _picked(more, 5, seed=3)
    assert [i for i in after if i.startswith("q-hi")] == [i for i in before if i.startswith("q-hi")]
    # New questions of a language can only displace picks, never bring back unpicked old ones.
    old_en = {i for i in after if i.startswith("q-en")}
    assert old_en <= {i for i in before if i.startswith("q-en")}
