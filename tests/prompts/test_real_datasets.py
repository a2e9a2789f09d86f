"""Prompts on the real shared data (skipped when ../shared/data is absent): NoMIRACL's ten
passages and XQuAD's Hindi paragraphs fit, or are cut and recorded, per model window."""

from __future__ import annotations

from pathlib import Path

from parakh.backends.base import estimate_tokens
from parakh.config.model import Sampling
from parakh.datasets.registry import load_dataset
from parakh.prompts.builder import ModelView, build_prompt
from parakh.prompts.template import load_prompt


def test_nomiracl_prompts_cut_to_an_8k_window_keep_the_top_passages(shared_data: Path) -> None:
    questions = load_dataset("nomiracl", shared_data / "nomiracl").questions[:40]
    prompt = load_prompt("nomiracl_vanilla")
    gemma = ModelView("chat", 8192, Sampling(max_tokens=64), system_role=False)
    small = ModelView("chat", 2048, Sampling(max_tokens=64))
    for q in questions:
        assert len(q.contexts) == 10
        wide = build_prompt(prompt, q, None, gemma, estimate_tokens)
        text = wide.messages[-1][1]
        assert "[10] " in text or wide.truncation is not None
        cut = build_prompt(prompt, q, None, small, estimate_tokens)
        assert cut.truncation is not None and not cut.truncation.overflow
        assert cut.truncation.prompt_tokens <= cut.truncation.budget_tokens
        assert "[1] " + q.contexts[0].text[:20] in cut.messages[-1][1]  # top passage kept


def test_xquad_hindi_paragraphs_fit_a_4k_window(shared_data: Path) -> None:
    questions = load_dataset("squad", shared_data / "xquad", {"files": {"xquad.hi.json": "hi"}})
    prompt = load_prompt("xquad_extractive")
    model = ModelView("chat", 4096, Sampling(max_tokens=64))
    built = [build_prompt(prompt, q, None, model, estimate_tokens) for q in questions.questions]
    assert len(built) == 880
    assert sum(b.truncation is not None for b in built) == 0
