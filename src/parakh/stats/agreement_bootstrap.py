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


def cohen_kappa_draws(
    pairs: ItemPairs, weights: np.ndarray, labels: list[float], *, linear: bool
) -> np.ndarray:
    confusion = stats.weighted_confusions(pairs.judge, pairs.human, labels, weights)
    return stats.kappa_of_confusions(confusion, "linear" if linear else None)


def krippendorff_ordinal_draws(
    units: np.ndarray, weights: np.ndarray, domain: list[float]
) -> np.ndarray:
    """Ordinal alpha per resample; `units` is the raters x items matrix (NaN: no rating)."""
    k = len(domain)
    domain_array = np.asarray(domain, dtype=float)
    per_unit = stats.unit_coincidences(units, domain_array)
    observed_all = (weights @ per_unit.reshape(units.shape[1], k * k)).reshape(-1, k, k)
    return np.array([stats.alpha_of_coincidences(o, domain_array, "ordinal") for o in observed_all])


def spearman_draws(pairs: ItemPairs, weights: np.ndarray) -> np.ndarray:
    return stats.weighted_spearman(pairs.judge, pairs.human, weights)


def kendall_tau_draws(pairs: ItemPairs, weights: np.ndarray) -> np.ndarray:
    return stats.weighted_kendall_tau(pairs.judge, pairs.human, weights)


def interval(draws: np.ndarray, confidence: float) -> Interval | None:
    return percentile_interval(np.asarray(draws, dtype=float), confidence)
