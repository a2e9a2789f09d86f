"""conf/translator/*.yaml: every file validates, `none` stays the default, unknown keys fail."""

from __future__ import annotations

import pytest

from parakh.config import compose
from parakh.config.loading import available
from parakh.errors import ConfigError


def test_none_is_the_default_and_unchanged() -> None:
    translator = compose().translator
    assert translator.model_dump() == {"name": "none", "kind": "none"}


@pytest.mark.parametrize("name", available("translator"))
def test_every_translator_config_validates(name: str) -> None:
    assert compose([f"translator={name}"]).translator.name == name


@pytest.mark.parametrize(
    "override",
    ["+translator.bogus=1", "translator.kind=marian", "+translator.indic_en.model=x"],
)
def test_unknown_keys_and_kinds_are_rejected(override: str) -> None:
    with pytest.raises(ConfigError):
        compose(["translator=indictrans2", override])
