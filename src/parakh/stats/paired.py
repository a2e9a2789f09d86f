"""Paired comparisons of two models on the same items, and Holm's correction across pairs.

Pairing on the items both models scored removes the part of a difference that comes from which
questions each happened to score; the sign-flip test asks how often a difference this large
appears if the two models' labels are exchangeable on every item. The difference is A minus B;
which is better follows the metric's direction (`higher_is_better`).

With 2^n at most the permutation count every sign pattern is enumerated and the p-value is
exact. Otherwise patterns are drawn as `Generator(PCG64(seed)).integers(0, 2, size=(block, n))`
draws them, read straight off the raw stream: numpy draws each 0/1 as the top bit of one 32-bit
output (Lemire's method never rejects for a range of 2), and PCG64 gives those outputs as the
low, then the high half of each 64-bit output, whatever the block size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from parakh.stats.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    Interval,
    bootstrap_mean_interval,
)

DEFAULT_PERMUTATIONS = 5000
# Sign-pattern elements per chunk (rows x items): bounds memory at a few tens of MB.
_CHUNK_SIGNS = 1 << 22


@dataclass(frozen=True)
class PairedResult:
    """Model A minus model B on the items both were scored on; `better` is "a" or "b" by the
    metric's direction (None on equal means), whatever the sign of the difference."""

    n: int
    mean_a: float
    mean_b: float
    difference: float
    interval: Interval | None
    p_value: float
    higher_is_better: bool = True

    @property
    def better(self) -> Literal["a", "b"] | None:
        if self.difference == 0.0:
            return None
        a_higher = self.difference > 0.0
        return "a" if a_higher == self.higher_is_better else "b"


def threshold_of(observed: float) -> float:
    """The least |mean| that counts as reaching `observed`: ties within rounding are ties."""
    return observed - 1e-12 * max(1.0, observed)


def sign_flip_p_value(differences: np.ndarray, *, seed: int, permutations: int) -> float:
    """Two-sided p-value of mean(differences) == 0 under random sign flips: exact over all
    2^n patterns when that is at most `permutations`, else (k + 1) / (B + 1) over `permutations`
    seeded patterns, never 0."""
    d = np.asarray(differences, dtype=float)
    if d.size == 0:
        raise ValueError("no paired items")
    observed = abs(float(d.mean()))
    if observed == 0.0:
        return 1.0
    threshold = threshold_of(observed)
    if 2**d.size <= permutations:  # every sign pattern, enumerated
        patterns = (np.arange(2**d.size)[:, None] >> np.arange(d.size)) & 1
        flipped = np.abs(((patterns * 2 - 1) * d).mean(axis=1))
        return int((flipped >= threshold).sum()) / 2**d.size
    at_least = sampled_at_least(
        d[:, None], np.array([threshold]), np.array([d.size]), seed=seed, permutations=permutations
    )
    return float(at_least[0] + 1) / (permutations + 1)


def paired_test(
    a: np.ndarray,
    b: np.ndarray,
    *,
    seed: int,
    permutations: int = DEFAULT_PERMUTATIONS,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
    higher_is_better: bool = True,
) -> PairedResult:
    """Compare per-item scores `a` and `b` (aligned: position i is the same item); the
    result's `better` follows `higher_is_better`."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired scores differ in length: {a.shape} vs {b.shape}")
    d = a - b
    return PairedResult(
        n=int(d.size),
        mean_a=float(a.mean()),
        mean_b=float(b.mean()),
        difference=float(d.mean()),
        interval=bootstrap_mean_interval(d, seed=seed, resamples=resamples, confidence=confidence),
        p_value=sign_flip_p_value(d, seed=seed + 1, permutations=permutations),
        higher_is_better=higher_is_better,
    )


def sampled_at_least(
    differences: np.ndarray,
    thresholds: np.ndarray,
    n: np.ndarray,
    *,
    seed: int,
    permutations: int,
) -> np.ndarray:
    """Per column of (items, tests) `differences` (0 off the test's own `n` items): how many
    of `permutations` sign patterns drawn from PCG64(`seed`) give |mean over its n items| at
    least its threshold."""
    n_items = differences.shape[0]
    bit_generator = np.random.PCG64(seed)
    rows = max(2, (_CHUNK_SIGNS // max(1, n_items)) & ~1)  # even: ends on a 64-bit output
    at_least = np.zeros(differences.shape[1], dtype=np.int64)
    done = 0
    while done < permutations:
        size = min(rows, permutations - done)
        raw = bit_generator.random_raw((size * n_items + 1) // 2)
        halves = raw.astype("<u8", copy=False).view("<u4")[: size * n_items]
        signs = np.where(halves >= 0x80000000, 1.0, -1.0).reshape(size, n_items)
        at_least += (np.abs(signs @ differences) / n >= thresholds).sum(axis=0)
        done += size
    return at_least


def holm_adjust(p_values: list[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (family-wise error), in the input order."""
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (p.size - np.arange(p.size)) * p[order])
    adjusted = np.empty_like(p)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted.tolist()
