"""Prompt building per model: few-shot turns, base-model completion text, window truncation."""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.backends.base import estimate_tokens
from parakh.config.generation import FewShotConfig
from parakh.config.model import CompletionFormat, Sampling
from parakh.errors import ConfigError
from parakh.io import read_jsonl, write_jsonl
from parakh.prompts.builder import ModelView, build_prompt
from parakh.prompts.fewshot import choose_examples, load_pool
from parakh.prompts.template import load_prompt
from parakh.schema import Passage, Question


def words(text: str) -> int:
    """A transparent token counter for tests: one token per whitespace-separated word."""
    return len(text.split())


def chat(window: int = 4096, max_tokens: int = 16) -> ModelView:
    return ModelView("chat", window, Sampling(max_tokens=max_tokens))


def _pool() -> list[Question]:
    return [
        Question(
            id=f"dev-{lang}-{i}",
            text=f"dev question {i}",
            language=lang,
            reference_answers=[f"dev answer {i}"],
        )
        for lang in ("hi", "ta")
        for i in range(4)
    ]


def _xquad(paragraph_words: int = 10, contexts: int = 1) -> Question:
    return Question(
        id="x1",
        text="Who won?",
        language="en",
        contexts=[
            Passage(id=f"c{j}", text=" ".join(f"w{j}_{i}" for i in range(paragraph_words)))
            for j in range(contexts)
        ],
    )


def test_fewshot_examples_are_deterministic_same_language_and_become_turns(
    tmp_path: Path,
) -> None:
    path = tmp_path / "dev.jsonl"
    write_jsonl(path, _pool())
    cfg = FewShotConfig(k=3, path=str(path), seed=7)
    question = Question(id="t1", text="test question", language="ta")
    pool = load_pool(cfg, [question])
    chosen = choose_examples(pool, question, cfg)
    assert [q.language for q in chosen] == ["ta"] * 3
    assert chosen == choose_examples(load_pool(cfg, [question]), question, cfg)
    assert (
        chosen
        != choose_examples(load_pool(cfg.model_copy(update={"seed": 8}), [question]), question, cfg)
        or len(chosen) == 4
    )
    built = build_prompt(
        load_prompt("indicquest_closed_book"), question, None, chat(), words, chosen
    )
    roles = [role for role, _ in built.messages]
    assert roles == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert built.messages[2][1] == chosen[0].reference_answers[0]
    assert built.messages[-1][1] == "Question: test question"


def test_the_fewshot_pool_must_not_overlap_the_evaluated_questions(tmp_path: Path) -> None:
    path = tmp_path / "dev.jsonl"
    write_jsonl(path, _pool())
    leaked = Question(id="other-id", text="Dev  Question 2", language="hi")
    with pytest.raises(ConfigError, match="also an evaluated question"):
        load_pool(FewShotConfig(k=1, path=str(path)), [leaked])
    with pytest.raises(ConfigError, match="needs a pool of examples"):
        load_pool(FewShotConfig(k=1), [leaked])


def test_nomiracl_examples_answer_with_the_verdict() -> None:
    prompt = load_prompt("nomiracl_vanilla")
    examples = [
        Question(
            id="e1",
            text="q1",
            language="hi",
            answerable=True,
            contexts=[Passage(id="a", text="ctx")],
        ),
        Question(
            id="e2",
            text="q2",
            language="hi",
            answerable=False,
            contexts=[Passage(id="b", text="ctx")],
        ),
    ]
    question = Question(id="t", text="q", language="hi", contexts=[Passage(id="c", text="x")])
    built = build_prompt(prompt, question, None, chat(), words, examples)
    answers = [content for role, content in built.messages if role == "assistant"]
    assert answers == ["Yes, answer is present", "I don't know"]


def test_base_models_get_one_completion_text_and_the_formats_stops() -> None:
    fmt = CompletionFormat(
        system="### Instruction:\n{content}\n\n",
        user="### Input:\n{content}\n\n",
        assistant="### Response:\n{content}\n\n",
        generation_prefix="### Response:\n",
        stop=["\n### "],
    )
    model = ModelView("base", 4096, Sampling(stop=["</s>"]), completion_format=fmt)
    question = Question(id="t1", text="ताजमहल किसने बनवाया?", language="hi")
    example = Question(id="d1", text="dev q", language="hi", reference_answers=["dev a"])
    built = build_prompt(
        load_prompt("indicquest_closed_book"), question, None, model, words, [example]
    )
    assert built.prompt is not None
    assert built.prompt.startswith("### Instruction:\nYou answer factual questions")
    assert built.prompt.endswith(
        "### Input:\nQuestion: dev q\n\n### Response:\ndev a\n\n"
        "### Input:\nQuestion: ताजमहल किसने बनवाया?\n\n### Response:\n"
    )
    assert built.sampling.stop == ["</s>", "\n### "]


def test_truncation_drops_lowest_ranked_passages_then_trims_and_records_it() -> None:
    prompt = load_prompt("nomiracl_vanilla")
    question = _xquad(paragraph_words=50, contexts=4)  # 4 passages of 50 words
    full = build_prompt(prompt, question, None, chat(window=10_000), words)
    assert full.truncation is None
    size = sum(words(c) + 4 for _, c in full.messages)
    window = size - 120 + 16 + 32  # 120 words too many for the budget
    cut = build_prompt(prompt, question, None, chat(window=window), words)
    t = cut.truncation
    assert t is not None and not t.overflow
    assert t.passages_given == 4 and t.passages_kept == 2  # one dropped whole, one trimmed
    assert t.chars_trimmed > 0 and t.prompt_tokens <= t.budget_tokens == window - 16 - 32
    text = cut.messages[-1][1]
    assert "[1] w0_0" in text and "[2] w1_0" in text and "[3]" not in text and "…" in text


def test_examples_are_dropped_before_context_and_overflow_is_flagged() -> None:
    prompt = load_prompt("xquad_extractive")
    question = _xquad(paragraph_words=30)
    shots = [_xquad(paragraph_words=30).model_copy(update={"id": f"e{i}"}) for i in range(3)]
    full = build_prompt(prompt, question, None, chat(window=10_000), words, shots)
    size = sum(words(c) + 4 for _, c in full.messages)
    cut = build_prompt(prompt, question, None, chat(window=size - 40 + 48), words, shots)
    assert cut.truncation is not None
    assert cut.truncation.examples_kept < 3 and cut.truncation.passages_kept == 1
    tiny = build_prompt(prompt, question, None, chat(window=60), words)
    assert tiny.truncation is not None and tiny.truncation.overflow
    off = build_prompt(prompt, question, None, chat(window=60), words, truncate=False)
    assert off.truncation is None


def test_the_default_token_estimate_counts_indic_text_conservatively() -> None:
    assert estimate_tokens("abcdefgh") == 2
    assert estimate_tokens("नमस्ते") == len("नमस्ते")


def test_a_kshot_run_on_the_demo_draws_from_the_dataset_pool() -> None:
    """The demo ships its own pool (conf/dataset/demo.yaml `fewshot_pool`), disjoint from the
    80 evaluated questions, so a k-shot variant runs on it with no other setting."""
    from parakh.config import compose
    from parakh.datasets.registry import load_dataset
    from parakh.stages.generate import build_requests
    from tests.conftest import REPO

    cfg = compose(["generation.fewshot.k=1"])
    assert cfg.dataset.fewshot_pool == "data/raw/demo/fewshot.jsonl"
    evaluated = load_dataset("healthbot", REPO / "data/raw/demo").questions
    asked = [q for q in evaluated if q.language == "ta"][:1]
    requests, _ = build_requests(cfg, asked, {})
    (request,) = requests
    roles = [role for role, _ in request.messages]
    assert roles.count("assistant") == 1  # one example turn before the question
    pool = {
        q.reference_answers[0]: q for q in read_jsonl(REPO / cfg.dataset.fewshot_pool, Question)
    }
    example_answer = request.messages[roles.index("assistant")][1]
    assert pool[example_answer].language == "ta"  # same language first
    load_pool(FewShotConfig(k=1, path=cfg.dataset.fewshot_pool), evaluated)  # disjoint: no error
