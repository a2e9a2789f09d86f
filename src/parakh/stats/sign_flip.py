"""The sign-flip test's count: how many sign patterns give a mean at least the observed one.

With few items (2^n at most the permutation count) every pattern is enumerated and the p-value
is exact. Otherwise patterns are drawn as they always were, `Generator(PCG64(seed)).integers(0,
2, size=(block, n))`, one pattern per row, and the same patterns are read here three to five
times faster: numpy draws each 0/1 as the top bit of one 32-bit output of the generator (Lemire's
method never rejects for a range of 2), and PCG64 gives those outputs as the low, then the high
half of each 64-bit output, whatever the block size. So the raw 64-bit stream, viewed as 32-bit
halves, holds the patterns row after row. A pattern's flipped sum is 2 x (the sum of the
differences whose sign is +1) - (the sum of all differences); the first part is a lookup per
byte of 8 signs in a table of the 256 partial sums of those 8 differences (one product of the
sign patterns and the differences, without materialising the patterns as floats).
"""

from __future__ import annotations

import numpy as np

# 32-bit draws per chunk of patterns: bounds memory at a few MB whatever the item count.
_CHUNK_DRAWS = 1 << 20
# Every subset of 8 items as a row of 0/1, bit j for item j (numpy's packbits, little order).
_BYTE_BITS = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(float)


def enumerated_at_least(differences: np.ndarray, threshold: float) -> int:
    """How many of all 2^n sign patterns give |mean(signs x differences)| >= threshold."""
    d = np.asarray(differences, dtype=float)
    patterns = (np.arange(2**d.size)[:, None] >> np.arange(d.size)) & 1
    flipped = np.abs(((patterns * 2 - 1) * d).mean(axis=1))
    return int((flipped >= threshold).sum())


def sampled_at_least(
    differences: np.ndarray, threshold: float, *, seed: int, permutations: int
) -> int:
    """How many of `permutations` patterns drawn from PCG64(`seed`) give |mean| >= threshold."""
    d = np.asarray(differences, dtype=float)
    n = d.size
    groups = -(-n // 8)
    padded = np.zeros(groups * 8)
    padded[:n] = d
    table = (padded.reshape(groups, 8) @ _BYTE_BITS.T).ravel()  # group g's subset b: g*256 + b
    total = float(d.sum())
    bit_generator = np.random.PCG64(seed)
    rows = max(2, (_CHUNK_DRAWS // n) & ~1)  # even: a chunk ends on a 64-bit output
    index = np.empty((rows, groups), dtype=np.intp)
    index[:] = np.arange(groups) * 256
    low_bytes = index.view(np.uint8)[:, :: index.itemsize]  # each index's lowest byte
    if np.little_endian is False:  # pragma: no cover - big-endian machines
        low_bytes = index.view(np.uint8)[:, index.itemsize - 1 :: index.itemsize]
    at_least = 0
    done = 0
    while done < permutations:
        size = min(rows, permutations - done)
        raw = bit_generator.random_raw((size * n + 1) // 2)
        halves = raw.astype("<u8", copy=False).view("<u4")[: size * n].reshape(size, n)
        plus = np.packbits(halves >= 0x80000000, axis=1, bitorder="little")
        low_bytes[:size] = plus
        positive = np.take(table, index[:size]).sum(axis=1)
        flipped = np.abs(2.0 * positive - total) / n
        at_least += int((flipped >= threshold).sum())
        done += size
    return at_least
