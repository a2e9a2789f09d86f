"""A model whose backend's optional dependency is missing fails with the exact install line."""

from __future__ import annotations

import sys

import pytest

from parakh.backends import make_backend
from parakh.backends.base import ChatRequest
from parakh.config import compose
from parakh.config.model import Sampling
from parakh.errors import MissingDependencyError

from .conftest import complete_one


@pytest.mark.parametrize(
    ("overrides", "module", "install"),
    [
        (["model=gpt-4o", "+model.transport=sdk"], "openai", "pip install 'parakh[openai]'"),
        (["model=smollm2"], "llama_cpp", "pip install 'parakh[local]'"),
        (["model=gemma-2-9b-it"], "vllm", "pip install 'parakh[vllm]'"),
    ],
)
def test_missing_dependency_names_the_install_line(
    monkeypatch: pytest.MonkeyPatch, overrides: list[str], module: str, install: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # `import module` now raises ImportError
    request = ChatRequest(key="q", messages=(("user", "hi"),), sampling=Sampling())
    with pytest.raises(MissingDependencyError) as err:
        complete_one(make_backend(compose(overrides).model), request)
    assert f"Install it with:\n    {install}" in str(err.value)


def test_the_default_openai_transport_needs_no_optional_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Parakh's own HTTP client posts the requests: neither the SDK nor aiohttp is needed."""
    for module in ("openai", "aiohttp"):
        monkeypatch.setitem(sys.modules, module, None)
    backend = make_backend(compose(["model=gpt-4o"]).model)
    assert type(backend).__name__ == "OpenAIBackend"
