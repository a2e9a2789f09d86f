"""Schema of conf/translator/*.yaml."""

from __future__ import annotations

from typing import Literal

from parakh.config.base import Strict


class TranslatorConfig(Strict):
    name: str
    kind: Literal["none"]
