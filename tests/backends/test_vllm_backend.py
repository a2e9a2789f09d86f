"""The vLLM backend with vLLM absent: what it would give `vllm.LLM`, `SamplingParams`,
`LLM.chat` and `LLM.generate` (recorded by a stand-in module), and the catalog entries that
resolve to it. The numbers must be those the OpenAI path sends (one request builder)."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from parakh.backends import make_backend
from parakh.backends.base import ChatRequest
from parakh.backends.request_builder import chat_body
from parakh.backends.runner import generate_all
from parakh.backends.vllm_backend import VLLMBackend
from parakh.config import compose
from parakh.config.loading import available
from parakh.config.model import Sampling, VLLMModel
from parakh.errors import MissingDependencyError

from .conftest import complete_one


@dataclass
class Recorder:
    engine: dict[str, Any] = field(default_factory=dict)
    chat_calls: list[tuple[Any, Any, dict[str, Any]]] = field(default_factory=list)
    generate_calls: list[tuple[Any, Any, dict[str, Any]]] = field(default_factory=list)


def fake_vllm(structured: str) -> tuple[types.ModuleType, Recorder]:
    """A stand-in `vllm` package with the documented offline API surface."""
    record = Recorder()
    vllm = types.ModuleType("vllm")
    sampling_module = types.ModuleType("vllm.sampling_params")

    class SamplingParams:
        def __init__(self, **kwargs: Any) -> None:
            self.kwargs = kwargs

    class JsonConstraint:
        def __init__(self, json: Any = None) -> None:
            self.json = json

    setattr(sampling_module, structured, JsonConstraint)
    sampling_module.SamplingParams = SamplingParams  # type: ignore[attr-defined]

    def output(prompt_tokens: int) -> Any:
        first = types.SimpleNamespace(text="generated", token_ids=[1, 2, 3], finish_reason="stop")
        return types.SimpleNamespace(prompt_token_ids=list(range(prompt_tokens)), outputs=[first])

    class LLM:
        def __init__(self, **kwargs: Any) -> None:
            record.engine = kwargs

        def chat(self, messages: Any, sampling_params: Any, **kwargs: Any) -> list[Any]:
            record.chat_calls.append((messages, sampling_params, kwargs))
            return [output(7) for _ in messages]

        def generate(self, prompts: Any, sampling_params: Any, **kwargs: Any) -> list[Any]:
            record.generate_calls.append((prompts, sampling_params, kwargs))
            return [output(5) for _ in prompts]

    vllm.LLM = LLM  # type: ignore[attr-defined]
    vllm.SamplingParams = SamplingParams  # type: ignore[attr-defined]
    vllm.sampling_params = sampling_module  # type: ignore[attr-defined]
    return vllm, record


@pytest.fixture(params=["StructuredOutputsParams", "GuidedDecodingParams"])
def vllm_stub(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    module, record = fake_vllm(request.param)
    monkeypatch.setitem(sys.modules, "vllm", module)
    monkeypatch.setitem(sys.modules, "vllm.sampling_params", module.sampling_params)
    return request.param, record


def _request(**changes: Any) -> ChatRequest:
    fields: dict[str, Any] = {
        "key": "q1",
        "messages": (("system", "Be brief."), ("user", "What is a cataract?")),
        "sampling": Sampling(temperature=0.0, max_tokens=64, seed=3, stop=["\n\n"]),
        **changes,
    }
    return ChatRequest(**fields)


def test_chat_requests_get_the_openai_paths_messages_and_numbers(vllm_stub) -> None:
    structured, record = vllm_stub
    cfg = compose(["model=llama-3.1-70b-instruct"]).model
    backend = make_backend(cfg)
    schema = {"type": "object", "properties": {"Score": {"type": "integer"}}}
    plain, constrained = _request(), _request(key="q2", json_schema=schema)
    results = generate_all(backend, [plain, constrained])
    assert [c.text for _, c in results] == ["generated", "generated"]
    assert results[0][1].prompt_tokens == 7 and results[0][1].completion_tokens == 3
    assert [c.finish_reason for _, c in results] == ["stop", "stop"]
    assert record.engine["model"] == "meta-llama/Llama-3.1-70B-Instruct"
    assert record.engine["tensor_parallel_size"] == 4
    assert record.engine["pipeline_parallel_size"] == 1
    assert record.engine["max_model_len"] == 32768
    ((conversations, params, kwargs),) = record.chat_calls
    body = chat_body(plain, cfg.model_id)  # what OpenAIBackend would send
    assert conversations[0] == body["messages"]
    expected = {k: body[k] for k in ("temperature", "top_p", "max_tokens", "seed", "stop")}
    assert params[0].kwargs == expected
    key = "structured_outputs" if structured == "StructuredOutputsParams" else "guided_decoding"
    assert params[1].kwargs[key].json == schema
    assert kwargs == {"use_tqdm": False}


def test_an_answer_cut_by_max_tokens_says_length(vllm_stub, monkeypatch) -> None:
    vllm = sys.modules["vllm"]

    class CutLLM(vllm.LLM):  # type: ignore[name-defined,misc]
        def chat(self, messages: Any, sampling_params: Any, **kwargs: Any) -> list[Any]:
            outputs = super().chat(messages, sampling_params, **kwargs)
            for out in outputs:
                out.outputs[0].finish_reason = "length"
            return outputs

    monkeypatch.setattr(vllm, "LLM", CutLLM)
    backend = make_backend(compose(["model=llama-3.1-8b-instruct"]).model)
    completion = complete_one(backend, _request())
    assert completion.ok and completion.finish_reason == "length"


def test_tensor_and_pipeline_parallel_sizes_reach_vllm(vllm_stub) -> None:
    """Mistral Large on two nodes of four GPUs: TP 4 x PP 2, as overrides of its entry."""
    _, record = vllm_stub
    overrides = ["model.tensor_parallel_size=4", "model.pipeline_parallel_size=2"]
    backend = make_backend(compose(["model=mistral-large-instruct-2407", *overrides]).model)
    complete_one(backend, _request())
    assert record.engine["tensor_parallel_size"] == 4
    assert record.engine["pipeline_parallel_size"] == 2
    assert record.engine["tokenizer_mode"] == "mistral"


def test_gemma_gets_its_system_text_in_the_first_user_turn(vllm_stub) -> None:
    _, record = vllm_stub
    backend = make_backend(compose(["model=gemma-2-9b-it"]).model)
    complete_one(backend, _request())
    ((conversations, _, _),) = record.chat_calls
    assert conversations[0] == [{"role": "user", "content": "Be brief.\n\nWhat is a cataract?"}]


def test_base_models_get_their_completion_prompt_through_generate(vllm_stub) -> None:
    _, record = vllm_stub
    backend = make_backend(compose(["model=navarasa-2.0-gemma-7b"]).model)
    text = "### Instruction:\nBe brief.\n\n### Input:\nq\n\n### Response:\n"
    completion = complete_one(backend, _request(prompt=text))
    assert completion.ok and completion.prompt_tokens == 5
    ((prompts, params, _),) = record.generate_calls
    assert prompts == [text] and params[0].kwargs["max_tokens"] == 64
    assert not record.chat_calls


def test_without_vllm_the_error_gives_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "vllm", None)  # import vllm -> ImportError
    backend = make_backend(compose(["model=qwen2.5-72b-instruct"]).model)  # lazy: no import yet
    with pytest.raises(MissingDependencyError) as err:
        complete_one(backend, _request())
    assert "pip install 'parakh[vllm]'" in str(err.value)


VLLM_ENTRIES = [
    "qwen2.5-72b-instruct",
    "mistral-large-instruct-2407",
    "phi-3.5-moe-instruct",
    "llama-3.1-70b-instruct",
    "llama-3.1-8b-instruct",
    "gemma-2-27b-it",
    "gemma-2-9b-it",
    "aya-23-35b",
    "aya-23-8b",
    "navarasa-2.0-gemma-7b",
    "open-aditi",
]


@pytest.mark.parametrize("name", VLLM_ENTRIES)
def test_catalog_entries_resolve_to_the_vllm_backend(name: str) -> None:
    assert name in available("model")
    cfg = compose([f"model={name}"]).model
    assert isinstance(cfg, VLLMModel) and cfg.name == name
    backend = make_backend(cfg)
    assert isinstance(backend, VLLMBackend)
    engine = backend.engine_kwargs()
    assert engine["tensor_parallel_size"] >= 1
    assert engine["max_model_len"] <= cfg.context_window
    assert cfg.notes, "catalog entries carry chat-template notes"


def _docs_gpu_table() -> dict[str, tuple[int, int, int]]:
    """model -> (GPUs, TP, PP) from the table in docs/scale.md's `scale:vllm` block."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "scale.md").read_text(encoding="utf-8")
    block = doc.split("<!-- scale:vllm -->")[1].split("<!-- /scale:vllm -->")[0]
    table: dict[str, tuple[int, int, int]] = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[3].isdigit():
            for name in cells[0].split(", "):
                table[name] = (int(cells[3]), int(cells[4]), int(cells[5]))
    return table


def test_the_docs_gpu_table_gives_each_vllm_entry_its_parallel_sizes() -> None:
    table = _docs_gpu_table()
    assert sorted(table) == sorted(VLLM_ENTRIES)
    for name in VLLM_ENTRIES:
        cfg = compose([f"model={name}"]).model
        assert isinstance(cfg, VLLMModel)
        tp, pp = cfg.tensor_parallel_size, cfg.pipeline_parallel_size
        assert table[name] == (tp * pp, tp, pp), name
