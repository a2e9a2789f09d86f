"""The reference-metric registry: names, scales, and the unknown-name error."""

from __future__ import annotations

import pytest

from parakh.errors import ConfigError
from parakh.metrics.registry import get_reference_metric, reference_metrics
from parakh.metrics.specs import Metric


def test_registered_metrics_and_scales() -> None:
    assert {name: m.scale_max for name, m in reference_metrics().items()} == {
        "exact_match": 1.0,
        "token_f1": 1.0,
        "rouge_l": 1.0,
        "ascii_rouge": 1.0,
        "chrf": 100.0,
        "chrf_pp": 100.0,
        "embedding_similarity": 1.0,
        "language_match": 1.0,
    }
    for name, metric in reference_metrics().items():
        assert isinstance(metric, Metric)
        assert metric.name == name
        assert metric.description


# ascii_rouge keeps only [a-z0-9], so it scores Hindi 0 by design; English below.
@pytest.mark.parametrize(
    "name", sorted(set(reference_metrics()) - {"language_match", "ascii_rouge"})
)
def test_every_metric_scores_within_its_scale(name: str) -> None:
    metric = get_reference_metric(name)
    assert metric.fn("नई दिल्ली", ["नई दिल्ली"], "hi") == metric.scale_max
    partial = metric.fn("नई दिल्ली", ["दिल्ली शहर"], "hi")
    if name == "exact_match":
        assert partial == 0.0
    else:
        assert 0.0 < partial < metric.scale_max


def test_ascii_rouge_scores_within_its_scale_on_english_and_zero_on_hindi() -> None:
    metric = get_reference_metric("ascii_rouge")
    assert metric.fn("New Delhi", ["new delhi"], "en") == metric.scale_max
    assert 0.0 < metric.fn("New Delhi", ["Delhi city"], "en") < metric.scale_max
    assert metric.fn("नई दिल्ली", ["नई दिल्ली"], "hi") == 0.0


def test_unknown_metric_names_close_matches_and_the_available_ones() -> None:
    with pytest.raises(ConfigError) as excinfo:
        get_reference_metric("rouge_lsum")
    assert str(excinfo.value) == (
        "Unknown metric 'rouge_lsum'. Did you mean 'rouge_l'? "
        "Available: ascii_rouge, chrf, chrf_pp, embedding_similarity, exact_match, language_match, "
        "nomiracl, red_flags, rouge_l, token_f1. A metric of another package is found once that "
        "package is installed (entry-point group parakh.metrics): `pip install` it"
    )


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("em", "exact_match"),
        ("f1", "token_f1"),
        ("rougeL", "rouge_l"),
        ("chrf++", "chrf_pp"),
        ("embedding", "embedding_similarity"),
        ("lang", "language_match"),
        ("F1", "token_f1"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert get_reference_metric(alias).name == name


def test_nomiracl_is_not_a_reference_metric() -> None:
    with pytest.raises(ConfigError, match="not a reference metric"):
        get_reference_metric("nomiracl")


def test_unknown_metric_without_close_match() -> None:
    with pytest.raises(
        ConfigError, match=r"^Unknown metric 'bleurt'\. Available: ascii_rouge, chrf, "
    ):
        get_reference_metric("bleurt")
