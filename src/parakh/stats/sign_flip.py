"""The sign-flip test's count: how many sign patterns give a mean at least the observed one.

With few items (2^n at most the permutation count) every pattern is enumerated and the p-value
is exact. Otherwise patterns are drawn as `Generator(PCG64(seed)).integers(0, 2, size=(block,
n))` draws them, one pattern per row, read straight off the raw stream: numpy draws each 0/1 as
the top bit of one 32-bit output (Lemire's method never rejects for a range of 2), and PCG64
gives those outputs as the low, then the high half of each 64-bit output, whatever the block
size. One matrix of patterns serves many tests at once.
"""

from __future__ import annotations

import numpy as np

# Sign-pattern elements per chunk (rows x items): bounds memory at a few tens of MB.
_CHUNK_SIGNS = 1 << 22


def enumerated_at_least(differences: np.ndarray, threshold: float) -> int:
    """How many of all 2^n sign patterns give |mean(signs x differences)| >= threshold."""
    d = np.asarray(differences, dtype=float)
    patterns = (np.arange(2**d.size)[:, None] >> np.arange(d.size)) & 1
    flipped = np.abs(((patterns * 2 - 1) * d).mean(axis=1))
    return int((flipped >= threshold).sum())


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
