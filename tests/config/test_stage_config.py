"""Config schemas: every group composes, unknown keys and unknown names fail with help."""

from __future__ import annotations

import pytest

from parakh.config import compose
from parakh.config.loading import GROUPS, available
from parakh.errors import ConfigError


@pytest.mark.parametrize("group", GROUPS)
def test_every_config_file_of_every_group_composes(group: str) -> None:
    for name in available(group):
        cfg = compose([f"{group}={name}"])
        assert getattr(cfg, group) is not None


def test_defaults_compose_to_the_demo() -> None:
    cfg = compose()
    assert cfg.dataset.name == "demo"
    assert cfg.judge.model is not None and cfg.judge.model.name == "smollm2"


def test_unknown_key_is_rejected_with_its_path() -> None:
    with pytest.raises(ConfigError, match=r"retriever\.top_kk: unknown key"):
        compose(["+retriever.top_kk=3"])


def test_unknown_nested_key_in_model_is_rejected() -> None:
    with pytest.raises(ConfigError, match="unknown key"):
        compose(["model=smollm2", "+model.sampling.temprature=0.5"])


def test_bad_value_type_is_rejected() -> None:
    with pytest.raises(ConfigError, match="retriever.top_k"):
        compose(["retriever.top_k=many"])


def test_unknown_model_names_close_matches_and_options() -> None:
    with pytest.raises(ConfigError) as err:
        compose(["model=smollm"])
    message = str(err.value)
    assert "Unknown model 'smollm'" in message
    assert "Did you mean 'smollm2'?" in message
    assert "Available: " in message and "extractive" in message.split("Available: ")[1]


def test_unknown_dataset_in_a_sweep_list_is_named() -> None:
    with pytest.raises(ConfigError, match="Unknown dataset 'dmeo'"):
        compose(["dataset=demo,dmeo"])


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ("model.sampling.max_tokens=-1", "sampling.max_tokens"),
        ("model.sampling.max_tokens=0", "sampling.max_tokens"),
        ("model.sampling.temperature=-0.5", "sampling.temperature"),
        ("++model.sampling.top_p=0", "sampling.top_p"),
        ("++model.sampling.top_p=1.5", "sampling.top_p"),
        ("++model.n_batch=0", "n_batch"),
    ],
)
def test_sampling_numbers_out_of_range_are_rejected_naming_the_field(
    override: str, field: str
) -> None:
    with pytest.raises(ConfigError, match=rf"model\.llamacpp\.{field}: Input should be"):
        compose(["model=smollm2", override])


@pytest.mark.parametrize(
    "url",
    ["localhost:8000/v1", "ftp://host/v1", "http:///v1", "http://host:99999/v1", "not a url"],
)
def test_a_base_url_must_be_http_with_a_host(url: str) -> None:
    with pytest.raises(ConfigError, match=r"model\.openai\.base_url: .*not .*URL"):
        compose(["model=served_judge", f"model.base_url='{url}'"])
    with pytest.raises(ConfigError, match=r"model\.openai\.base_url: .*not .*URL"):
        compose(["model=served_judge", f"model.base_url=[http://127.0.0.1:8080/v1,'{url}']"])
    with pytest.raises(ConfigError, match=r"model\.openai\.servers\.0\.base_url: .*not .*URL"):
        compose(
            ["model=served_judge", "model.base_url=null", f"+model.servers=[{{base_url:'{url}'}}]"]
        )


def test_good_base_urls_pass() -> None:
    for url in ("http://127.0.0.1:8080/v1", "https://api.example.com/v1", "http://node-3:8000"):
        assert compose(["model=served_judge", f"model.base_url='{url}'"]).model is not None
