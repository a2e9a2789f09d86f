"""The cache key holds everything that changes the output and nothing that does not.

The walk below changes every field of every model config, nested ones included, one at a time:
the request hash must change, unless the field's class declares it answer-neutral, and then it
must not. A field added to a config without either is caught here.
"""

from __future__ import annotations

import shutil
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from parakh.backends.base import ChatRequest, make_backend
from parakh.backends.cache import request_hash
from parakh.config.model import AnswerKeyed, ModelConfig, OpenAIModel, Sampling, VLLMModel
from parakh.hashing import canonical_json, sha256_obj
from parakh.io import write_jsonl

Path_ = tuple[str | int, ...]


def _request(**changes: object) -> ChatRequest:
    fields = {"key": "q1", "messages": (("user", "hi"),), "sampling": Sampling(), **changes}
    return ChatRequest(**fields)  # type: ignore[arg-type]


def _judge_request() -> ChatRequest:
    """A judge's request: a system turn, as it is before a backend merges it for Gemma."""
    return _request(
        messages=(("system", "Grade the answer."), ("user", "Answer: Paris")),
        json_schema={"type": "object", "properties": {"score": {"type": "integer"}}},
    )


def _identity(**changes: object) -> dict:
    cfg = OpenAIModel.model_validate(
        {
            "name": "m",
            "backend": "openai",
            "model_id": "org/model",
            "base_url": "http://127.0.0.1:8000/v1",
            **changes,
        }
    )
    return make_backend(cfg).identity()


def test_output_changing_fields_change_the_key() -> None:
    base = request_hash(_identity(), _request())
    assert request_hash(_identity(model_id="org/other"), _request()) != base
    assert request_hash(_identity(revision="abc123"), _request()) != base
    assert request_hash(_identity(), _request(messages=(("user", "hello"),))) != base
    assert request_hash(_identity(), _request(sampling=Sampling(seed=1))) != base
    assert request_hash(_identity(), _request(sampling=Sampling(temperature=0.5))) != base
    assert request_hash(_identity(), _request(prompt="Question: hi\nAnswer:")) != base
    assert request_hash(_identity(), _request(json_schema={"type": "object"})) != base


def test_timeouts_retries_concurrency_and_replica_bookkeeping_do_not() -> None:
    base = request_hash(_identity(), _request())
    for change in (
        {"timeout_s": 5.0},
        {"max_retries": 0},
        {"concurrency": 64},
        {"backoff_s": 2.0},
        {"base_url": "http://127.0.0.1:8000/v1/"},  # the same server
        {"base_url": None, "servers": [{"base_url": "http://127.0.0.1:8000/v1", "concurrency": 3}]},
    ):
        assert request_hash(_identity(**change), _request()) == base, change
    replicas = ["http://10.0.0.1:8000/v1", "http://10.0.0.2:8000/v1"]
    assert request_hash(_identity(base_url=replicas), _request()) == request_hash(
        _identity(base_url=replicas[::-1]), _request()
    )


def test_one_model_id_on_two_servers_is_two_keys() -> None:
    """Two llama.cpp servers may serve two GGUFs under one alias: the second must be asked."""
    first = _identity(base_url="http://127.0.0.1:8080/v1")
    second = _identity(base_url="http://127.0.0.1:8081/v1")
    assert request_hash(first, _request()) != request_hash(second, _request())


def test_system_role_changes_a_judge_requests_key() -> None:
    """A judge request keeps its system turn until the backend merges it (system_role: false)."""
    request = _judge_request()
    merged = request_hash(_identity(system_role=False), request)
    assert merged != request_hash(_identity(system_role=True), request)


def test_structured_output_changes_the_key() -> None:
    request = _judge_request()
    keys = {
        request_hash(_identity(structured_output=style), request)
        for style in ("json_schema", "json_object_schema", "none")
    }
    assert len(keys) == 3


def test_vllm_engine_settings_that_change_answers_change_the_key() -> None:
    def key(**changes: object) -> str:
        cfg = VLLMModel.model_validate(
            {"name": "v", "backend": "vllm", "model_id": "org/model", **changes}
        )
        return request_hash(make_backend(cfg).identity(), _request())

    base = key()
    for change in (
        {"tokenizer_mode": "slow"},
        {"max_model_len": 2048},
        {"trust_remote_code": True},
        {"dtype": "bfloat16"},
        {"chat_template": "{{ messages }}"},
    ):
        assert key(**change) != base, change
    assert key(tensor_parallel_size=4, gpu_memory_utilization=0.5) == base


# --- the walk over every field -------------------------------------------------------------

GGUF_BYTES = b"GGUF not a real model"
ROWS = [
    {
        "question_id": qid,
        "qid": qid,
        "response": "a",
        "answer": "b",
        "model": model,
        "who": model,
        "outputs": {"m1": "c", "m2": "d"},
    }
    for qid, model in (("q1", "m1"), ("q2", "m2"))
]
# Values the generic rule below cannot make: they must stay valid (a file that exists, a
# field the answers file has, a URL). Keys are dotted field paths (list items as 0).
ALTERNATIVES: dict[str, Any] = {
    "base_url": "http://127.0.0.1:9000/v1",
    "servers.0.base_url": "http://127.0.0.1:9000/v1",
    "question_id_field": "qid",
    "question_id_template": "{qid}",
    "response_field": "answer",
    "model_field": "who",
    "model_value": "m2",
    "responses_field": "outputs",
    "format": "jsonl",
    "prices": {"input_per_mtok": 1.0, "output_per_mtok": 2.0},
}
# Paths to a copy of the same file under another name: keyed or not, they must stay readable.
FILE_COPIES = {"model_path": "model.gguf", "answers": "answers.jsonl"}


def _bases(tmp: Path) -> dict[str, dict[str, Any]]:
    """A valid config per backend; every member of the ModelConfig union must have one."""
    (tmp / "model.gguf").write_bytes(GGUF_BYTES)
    write_jsonl(tmp / "answers.jsonl", ROWS)
    return {
        "llamacpp": {"model_path": str(tmp / "model.gguf")},
        "openai": {"model_id": "org/model", "base_url": "http://127.0.0.1:8000/v1"},
        "vllm": {"model_id": "org/model"},
        "extractive": {},
        "scripted": {},
        "replay": {"answers": str(tmp / "answers.jsonl"), "model_value": "m1"},
    }


def _config_classes() -> list[type[AnswerKeyed]]:
    union = typing.get_args(ModelConfig)[0]
    return list(typing.get_args(union))


def _model_class(annotation: Any) -> type[BaseModel] | None:
    """The config class a field holds (itself, in a list, or optional), if any."""
    if isinstance(annotation, type) and not typing.get_args(annotation):
        return annotation if issubclass(annotation, BaseModel) else None
    for arg in typing.get_args(annotation):
        found = _model_class(arg)
        if found is not None:
            return found
    return None


def _fields(cls: type[BaseModel], prefix: Path_ = ()) -> Iterator[tuple[Path_, bool, Any]]:
    """(path, declared neutral, annotation) of every leaf field; lists of configs by item 0."""
    neutral = getattr(cls, "answer_neutral", frozenset())
    for name, info in cls.model_fields.items():
        path = (*prefix, name)
        nested = _model_class(info.annotation)
        if name in neutral or nested is None:
            yield path, name in neutral, info.annotation
        elif typing.get_origin(info.annotation) is list:
            yield from _fields(nested, (*path, 0))
        else:
            yield from _fields(nested, path)


def _get(data: Any, path: Path_) -> Any:
    for part in path:
        data = data[part] if isinstance(data, list) else (data or {}).get(part)
    return data


def _set(data: dict[str, Any], path: Path_, value: Any) -> dict[str, Any]:
    copy: Any = {**data}
    node = copy
    for part in path[:-1]:
        child = node[part]
        node[part] = [*child] if isinstance(child, list) else {**child}
        node = node[part]
    node[path[-1]] = value
    return typing.cast(dict[str, Any], copy)


def _other(annotation: Any, current: Any) -> Any:
    """A valid value of the field's type other than `current`."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) is Literal:
        return next(a for a in args if a != current)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        if current is None:
            return _other(args[0], None)
        return None if len(args) == 1 else _other(type(current), current)
    if annotation is bool:
        return not current
    if annotation is int:
        return 1000 if current is None else current + 1
    if annotation is float:
        return current / 2 if current else 0.5
    if annotation is str:
        return "other" if current is None else f"{current}-other"
    origin = typing.get_origin(annotation)
    if origin is list:
        return [*(current or []), "other"]
    if origin is dict:
        return {**(current or {}), "other": "value"}
    if _model_class(annotation) is not None:
        return None  # an optional nested config, set: drop it
    raise AssertionError(f"no rule for {annotation!r}: add the field to ALTERNATIVES")


def _hash(cls: type[AnswerKeyed], data: dict[str, Any]) -> str:
    return request_hash(make_backend(cls.model_validate(data)).identity(), _judge_request())


@pytest.mark.parametrize("cls", _config_classes(), ids=lambda c: c.__name__)
def test_every_field_is_keyed_or_declared_answer_neutral(
    cls: type[AnswerKeyed], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # any server, Azure too, may be built
    backend = typing.get_args(cls.model_fields["backend"].annotation)[0]
    given = {"name": "m", "backend": backend, **_bases(tmp_path)[backend]}
    base = cls.model_validate(given).model_dump()  # every field present, defaults included
    servers = {**base, "base_url": None, "servers": [{"base_url": base.get("base_url")}]}
    walked = []
    for path, is_neutral, annotation in _fields(cls):
        if path == ("backend",):
            continue  # the discriminator: another value is another class (keyed: see below)
        # `servers` replaces `base_url`, so its items are walked on a base that has them.
        data = servers if path[0] == "servers" else base
        dotted = ".".join(str(p) for p in path)
        if dotted in FILE_COPIES:
            copy = tmp_path / f"copy-{FILE_COPIES[dotted]}"
            value = str(shutil.copy(tmp_path / FILE_COPIES[dotted], copy))
        elif dotted in ALTERNATIVES:
            value = ALTERNATIVES[dotted]
        else:
            value = _other(annotation, _get(data, path))
        changed = _set(data, path, value)
        assert changed != data, dotted
        same = _hash(cls, changed) == _hash(cls, data)
        walked.append(dotted)
        if is_neutral:
            assert same, f"{cls.__name__}.{dotted} is declared answer-neutral but changes the key"
        else:
            assert not same, (
                f"{cls.__name__}.{dotted} changes no cache key: key it, or declare it in "
                "`answer_neutral` if it cannot change an answer"
            )
    assert "sampling.max_tokens" in walked and "system_role" in walked
    assert make_backend(cls.model_validate(base)).identity()["backend"] == backend


def test_the_key_is_the_hash_of_the_canonical_json_of_model_and_request() -> None:
    """Entries written before stay hits: the key given the identity or its JSON made once is
    the sha256 of canonical {"model": identity, "request": payload}."""
    identity, request = _identity(), _request(messages=(("user", "ಕಣ್ಣಿನ ಪೊರೆ?"),))
    expected = sha256_obj({"model": identity, "request": request.cache_payload()})
    assert request_hash(identity, request) == request_hash(canonical_json(identity), request)
    assert request_hash(identity, request) == expected
