"""Every metric name in judge rows has a spec: direction, scale and aggregation."""

from __future__ import annotations

import pytest

from parakh.errors import ConfigError
from parakh.metrics.registry import declared_specs, metric_spec, reference_metrics
from parakh.metrics.rubric import Rubric, load_rubric
from parakh.metrics.specs import WEIGHTED, MetricSpec, undeclared_spec


def test_nomiracl_rates_are_lower_is_better_rates_on_0_to_1() -> None:
    for name in ("nomiracl_hallucination", "nomiracl_error"):
        spec = metric_spec(name)
        assert (spec.direction, spec.aggregation) == ("lower", "rate")
        assert (spec.scale_min, spec.scale_max) == (0.0, 1.0)
        assert spec.better(0.1, 0.4) and not spec.better(0.4, 0.1)
        assert spec.direction_text == "lower is better"


def test_reference_metrics_are_higher_is_better_means_on_their_scale() -> None:
    for name, metric in reference_metrics().items():
        spec = metric_spec(name)
        assert spec == metric.spec
        assert (spec.direction, spec.aggregation, spec.scale_min) == ("higher", "mean", 0.0)
        assert spec.scale_max == metric.scale_max
    assert metric_spec("chrF++").name == "chrf_pp"  # aliases resolve too


def test_rubric_criteria_take_the_rubric_file_scale_and_direction() -> None:
    overall = metric_spec("iq_overall")
    assert (overall.direction, overall.scale_min, overall.scale_max) == ("higher", 1.0, 5.0)
    assert overall.unit(3.0) == pytest.approx(0.5) and overall.goodness(1.0) == 0.0
    assert {s.name for s in load_rubric("indicquest").metric_specs()} >= {
        "iq_overall",
        "iq_factual_accuracy",
    }
    factual = metric_spec("factual_correctness")
    assert (factual.direction, factual.scale_min, factual.scale_max) == ("higher", 0.0, 2.0)


def test_a_rubric_may_declare_lower_is_better() -> None:
    rubric = Rubric.model_validate(
        {
            "name": "verbosity",
            "title": "Verbosity",
            "description": "How much padding the answer has.",
            "uses_reference": False,
            "scale": {"min": 0, "max": 2},
            "direction": "lower",
            "scoring": {0: "none", 1: "some", 2: "a lot"},
        }
    )
    (spec,) = rubric.metric_specs()
    assert spec.direction == "lower" and spec.goodness(0.0) == 1.0
    assert metric_spec("verbosity", rubrics=[rubric]).direction == "lower"
    with pytest.raises(ValueError, match="direction"):
        Rubric.model_validate({**rubric.model_dump(), "direction": "up"})


def test_weighted_is_higher_on_0_to_1() -> None:
    spec = metric_spec(WEIGHTED)
    assert (spec.direction, spec.scale_min, spec.scale_max) == ("higher", 0.0, 1.0)


def test_goodness_flips_lower_is_better_and_uses_the_scale_min() -> None:
    rate = MetricSpec("r", "lower", 0.0, 1.0, "rate")
    assert rate.goodness(0.25) == pytest.approx(0.75)  # 1 - (x - min) / (max - min)
    likert = MetricSpec("l", "higher", 1.0, 5.0)
    assert likert.goodness(5.0) == 1.0 and likert.goodness(2.0) == pytest.approx(0.25)
    with pytest.raises(ValueError, match="a rate is on 0..1"):
        MetricSpec("bad", "lower", 0.0, 100.0, "rate")
    with pytest.raises(ValueError, match="below"):
        MetricSpec("bad", "higher", 5.0, 1.0)


def test_unknown_names_are_an_error_unless_a_default_scale_is_given() -> None:
    with pytest.raises(ConfigError) as excinfo:
        metric_spec("nomiracl_halucination")
    message = str(excinfo.value)
    assert "Unknown metric 'nomiracl_halucination'" in message
    assert "Did you mean 'nomiracl_hallucination'" in message and "iq_overall" in message
    default = metric_spec("bleu", default_scale_max=100.0)
    assert default == undeclared_spec("bleu", 100.0)
    assert (default.direction, default.scale_max, default.declared) == ("higher", 100.0, False)


def test_every_conf_rubric_criterion_is_declared() -> None:
    specs = declared_specs()
    for name in ("coherence", "conciseness", "semantic_similarity", "iq_language_consistency"):
        assert specs[name].declared and specs[name].aggregation == "mean"
