"""Agreement between a jury's jurors (Krippendorff's alpha checked against the `krippendorff`
package where it is installed)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from parakh.schema import Judgment
from parakh.stats.agreement import AlphaLevel, jury_agreement
from parakh.stats.agreement import krippendorff_alpha as alpha_of_matrix


def krippendorff_alpha(units: list[list[float | None]], level: AlphaLevel) -> float | None:
    """Alpha of units (items) of ratings, None missing (as a jury's votes); None: undefined."""
    width = max(len(unit) for unit in units)
    rows = [
        [math.nan if r is None else r for r in unit] + [math.nan] * (width - len(unit))
        for unit in units
    ]
    alpha = alpha_of_matrix(np.array(rows, dtype=float).T, level=level)
    return None if math.isnan(alpha) else alpha


def test_alpha_on_krippendorffs_textbook_example() -> None:
    """Krippendorff (2011), 'Computing Krippendorff's alpha-reliability', nominal example:
    4 coders, 12 units, missing values; alpha = 0.743."""
    data = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    units = [[coder[u] for coder in data] for u in range(12)]
    assert krippendorff_alpha(units, "nominal") == pytest.approx(0.743, abs=5e-4)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_alpha_equals_the_krippendorff_package(level) -> None:
    krippendorff = pytest.importorskip("krippendorff")
    rng = random.Random(5)
    for _ in range(20):
        n_units, n_coders = rng.randint(5, 30), rng.randint(2, 4)
        units = [
            [rng.choice([0, 1, 2, None]) if rng.random() < 0.9 else None for _ in range(n_coders)]
            for _ in range(n_units)
        ]
        ours = krippendorff_alpha(units, level)
        matrix = np.array(
            [[np.nan if u[c] is None else u[c] for u in units] for c in range(n_coders)], float
        )
        try:
            theirs = krippendorff.alpha(reliability_data=matrix, level_of_measurement=level)
        except ValueError:  # the package refuses data with one value or no pairable units
            assert ours is None
            continue
        if ours is None:
            assert np.isnan(theirs) or theirs in (0.0, 1.0)
        else:
            assert ours == pytest.approx(theirs, abs=1e-9)


def test_alpha_is_undefined_without_pairs_or_variation() -> None:
    assert krippendorff_alpha([[1, None], [None, 2]], "interval") is None
    assert krippendorff_alpha([[2, 2], [2, 2]], "ordinal") is None


def _row(question: str, metric: str, votes: dict[str, float | None]) -> Judgment:
    fixed = {"model": "m", "judge": "jury", "language": "hi", "status": "ok", "score": 1.0}
    return Judgment(question_id=question, metric=metric, votes=votes, **fixed)


def test_jury_agreement_per_metric_and_pair() -> None:
    rows = [
        _row("q1", "coherence", {"a": 2, "b": 2, "c": 1}),
        _row("q2", "coherence", {"a": 0, "b": 0, "c": 0}),
        _row("q3", "coherence", {"a": 1, "b": None, "c": 1}),
        _row("q4", "coherence", {"a": None, "b": None, "c": 2}),
    ]
    (agreement,) = jury_agreement(rows, ["a", "b", "c"], {"coherence": True})
    assert agreement.metric == "coherence" and agreement.items == 3
    assert agreement.percent_agreement == pytest.approx((1 / 3 + 1 + 1) / 3)
    pairs = {p.jurors: (p.agree, p.items) for p in agreement.pairs}
    assert pairs == {("a", "b"): (2, 2), ("a", "c"): (2, 3), ("b", "c"): (1, 2)}
    assert agreement.alpha_level == "ordinal"
    assert agreement.alpha == pytest.approx(
        krippendorff_alpha([[2, 2, 1], [0, 0, 0], [1, None, 1], [None, None, 2]], "ordinal")
    )
