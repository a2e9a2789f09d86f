"""Agreement statistics equal the reference implementations on case files and random data."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from parakh.stats import agreement

sklearn_metrics = pytest.importorskip("sklearn.metrics")
krippendorff = pytest.importorskip("krippendorff")
scipy_stats = pytest.importorskip("scipy.stats")

CASES = json.loads((Path(__file__).parent / "cases" / "agreement.json").read_text())["cases"]


def _same(ours: float, reference: float) -> bool:
    if np.isnan(reference):
        return bool(np.isnan(ours))
    return abs(ours - reference) < 1e-10


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_kappa_equals_sklearn(case: dict, weights: str | None) -> None:
    reference = sklearn_metrics.cohen_kappa_score(
        case["a"], case["b"], labels=case["labels"], weights=weights
    )
    ours = agreement.cohen_kappa(case["a"], case["b"], labels=case["labels"], weights=weights)
    assert _same(ours, reference)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_krippendorff_alpha_equals_package(case: dict, level: str) -> None:
    data = np.array([case["a"], case["b"]], dtype=float)
    with np.errstate(all="ignore"):
        reference = krippendorff.alpha(
            reliability_data=data, level_of_measurement=level, value_domain=case["labels"]
        )
    ours = agreement.krippendorff_alpha(data, level=level, value_domain=case["labels"])
    assert _same(ours, reference)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_correlations_equal_scipy(case: dict) -> None:
    assert _same(
        agreement.spearman(case["a"], case["b"]),
        scipy_stats.spearmanr(*[case["a"], case["b"]]).statistic,
    )
    assert _same(
        agreement.kendall_tau(case["a"], case["b"]),
        scipy_stats.kendalltau(case["a"], case["b"]).statistic,
    )


def test_percentage_agreement_counts_exact_matches() -> None:
    assert agreement.percentage_agreement([0, 1, 2, 2], [0, 1, 1, 2]) == 75.0
    assert np.isnan(agreement.percentage_agreement([], []))


def test_random_data_with_missing_ratings_and_three_raters() -> None:
    rng = np.random.default_rng(7)
    for _ in range(40):
        n = int(rng.integers(3, 50))
        a = rng.integers(1, 5, n).astype(float)
        b = np.clip(a + rng.integers(-1, 2, n), 1, 4)
        c = np.where(rng.random(n) < 0.4, np.nan, np.clip(a + rng.integers(-2, 3, n), 1, 4))
        data = np.vstack([a, b, c])
        for level in ("nominal", "ordinal", "interval", "ratio"):
            with np.errstate(all="ignore"):
                reference = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
            assert _same(agreement.krippendorff_alpha(data, level=level), reference), level
        for weights in (None, "linear"):
            reference = sklearn_metrics.cohen_kappa_score(
                a, b, weights=weights, labels=[1, 2, 3, 4]
            )
            ours = agreement.cohen_kappa(a, b, weights=weights, labels=[1, 2, 3, 4])
            assert _same(ours, reference)
        x = rng.random(n).round(2)
        assert _same(agreement.spearman(a, x), scipy_stats.spearmanr(a, x).statistic)
        assert _same(agreement.kendall_tau(a, x), scipy_stats.kendalltau(a, x).statistic)


def test_continuous_scores_against_grades_over_many_items() -> None:
    """Kendall's tau-b is computed in blocks; a long input crosses block boundaries."""
    rng = np.random.default_rng(3)
    grades = rng.integers(1, 5, 1500).astype(float)
    scores = grades / 4 + rng.normal(0, 0.3, 1500)
    assert _same(
        agreement.kendall_tau(scores, grades), scipy_stats.kendalltau(scores, grades).statistic
    )
    assert _same(
        agreement.spearman(scores, grades), scipy_stats.spearmanr(scores, grades).statistic
    )


def test_undefined_statistics_are_nan_not_made_up() -> None:
    assert np.isnan(agreement.cohen_kappa([1, 1, 1], [1, 1, 1]))
    assert np.isnan(agreement.spearman([1, 1, 1], [0, 1, 2]))
    assert np.isnan(agreement.kendall_tau([2.0], [1.0]))
    assert np.isnan(agreement.krippendorff_alpha([[1, 1], [1, 1]]))
    with pytest.raises(ValueError, match="one length"):
        agreement.spearman([1, 2], [1, 2, 3])
