"""Per-language slices: N questions of every language, chosen by the run's seed.

A question's rank within its language is sha256("<seed>:<id>"), so the same seed picks the same
questions, and adding or removing other questions never changes whether one already picked
stays picked unless it is pushed out of its own language's top N. The kept questions keep
their input order.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence

from parakh.schema import Question


def per_language_mask(questions: Sequence[Question], n: int, seed: int) -> list[bool]:
    """Which questions a slice of `n` per language keeps (all of a language with fewer)."""
    by_language: dict[str, list[int]] = defaultdict(list)
    for i, q in enumerate(questions):
        by_language[q.language].append(i)
    keep = [False] * len(questions)
    for indices in by_language.values():
        # the rank of a question within its language: lower is picked first
        ranked = sorted(
            indices, key=lambda i: hashlib.sha256(f"{seed}:{questions[i].id}".encode()).hexdigest()
        )
        for i in ranked[:n]:
            keep[i] = True
    return keep
