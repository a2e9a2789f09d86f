"""Bootstrap intervals of judge-human agreement statistics, resampling items.

An item (one answer) may carry several pairs (repeated human ratings); every pair of a drawn
item comes along as often as it was drawn. Each statistic is computed on all resamples at once
from per-pair weights (`pair_weights`), equal to `parakh.stats.agreement` on the expanded data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parakh.stats import agreement as stats
from parakh.stats.bootstrap import (
    Interval,
    multiplicities,
    percentile_interval,
    resample_blocks,
)


@dataclass(frozen=True)
class ItemPairs:
    """Paired scores; `item[i]` is the index (0..n_items-1) of pair i's item."""

    judge: np.ndarray
    human: np.ndarray
    item: np.ndarray
    n_items: int

    @classmethod
    def of(cls, judge: list[float], human: list[float], items: list[object]) -> ItemPairs:
        order = {key: i for i, key in enumerate(dict.fromkeys(items))}
        return cls(
            np.asarray(judge, dtype=float),
            np.asarray(human, dtype=float),
            np.asarray([order[key] for key in items], dtype=int),
            len(order),
        )


def item_weights(n_items: int, resamples: int, seed: int) -> np.ndarray:
    """(resamples, n_items): how many times each item is drawn in each resample."""
    blocks = [multiplicities(index) for index in resample_blocks(n_items, resamples, seed)]
    return np.concatenate(blocks) if blocks else np.zeros((0, n_items))


def pair_weights(pairs: ItemPairs, weights: np.ndarray) -> np.ndarray:
    """(resamples, pairs) from (resamples, items): a pair comes along with its item."""
    return weights[:, pairs.item]


def percent_agreement_draws(pairs: ItemPairs, weights: np.ndarray) -> np.ndarray:
    match = (pairs.judge == pairs.human).astype(float)
    total = weights.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(100.0 * (weights @ match) / total)


def _one_hot(values: np.ndarray, labels: list[float]) -> np.ndarray:
    position = {float(v): i for i, v in enumerate(labels)}
    out = np.zeros((values.size, len(labels)))
    for row, value in enumerate(values):
        if float(value) in position:
            out[row, position[float(value)]] = 1.0
    return out


def cohen_kappa_draws(
    pairs: ItemPairs, weights: np.ndarray, labels: list[float], *, linear: bool
) -> np.ndarray:
    k = len(labels)
    cells = _one_hot(pairs.judge, labels)[:, :, None] * _one_hot(pairs.human, labels)[:, None, :]
    confusion = (weights @ cells.reshape(pairs.judge.size, k * k)).reshape(-1, k, k)
    total = confusion.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = confusion.sum(axis=2)[:, :, None] * confusion.sum(axis=1)[:, None, :]
        expected = expected / total[:, None, None]
        grid = np.arange(k)
        w = np.abs(grid[:, None] - grid[None, :]).astype(float) if linear else 1.0 - np.eye(k)
        denominator = (w * expected).sum(axis=(1, 2))
        value = 1.0 - (w * confusion).sum(axis=(1, 2)) / denominator
    return np.where((total > 0) & (denominator > 0), value, np.nan)


def krippendorff_ordinal_draws(
    units: np.ndarray, weights: np.ndarray, domain: list[float]
) -> np.ndarray:
    """Ordinal alpha per resample; `units` is the raters x items matrix (NaN: no rating)."""
    k = len(domain)
    domain_array = np.asarray(domain, dtype=float)
    counts = stats.unit_value_counts(units, domain_array)
    pairable = counts.sum(axis=1)[:, None, None]
    per_unit = counts[:, :, None] * counts[:, None, :]
    per_unit[:, np.arange(k), np.arange(k)] -= counts
    per_unit = np.where(pairable >= 2, per_unit / np.maximum(pairable - 1, 1), 0.0)
    observed_all = (weights @ per_unit.reshape(units.shape[1], k * k)).reshape(-1, k, k)
    return np.array([stats.alpha_of_coincidences(o, domain_array, "ordinal") for o in observed_all])


def spearman_draws(pairs: ItemPairs, weights: np.ndarray) -> np.ndarray:
    rx = stats.weighted_ranks(pairs.judge, weights)
    ry = stats.weighted_ranks(pairs.human, weights)
    total = weights.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        dx = rx - (weights * rx).sum(axis=1, keepdims=True) / total
        dy = ry - (weights * ry).sum(axis=1, keepdims=True) / total
        covariance = (weights * dx * dy).sum(axis=1)
        spread = np.sqrt((weights * dx**2).sum(axis=1) * (weights * dy**2).sum(axis=1))
        return np.where(spread > 0, covariance / spread, np.nan)


def kendall_tau_draws(pairs: ItemPairs, weights: np.ndarray) -> np.ndarray:
    return stats.weighted_kendall_tau(pairs.judge, pairs.human, weights)


def interval(draws: np.ndarray, confidence: float) -> Interval | None:
    return percentile_interval(np.asarray(draws, dtype=float), confidence)
