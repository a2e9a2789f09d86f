"""Schema of conf/dataset/*.yaml."""

from __future__ import annotations

from pydantic import Field

from parakh.config.base import Strict


class DatasetConfig(Strict):
    name: str
    adapter: str
    path: str
    prompt: str = Field(description="name of a file in conf/prompt/")
    limit: int | None = Field(default=None, ge=1, description="keep only the first N questions")
    languages: list[str] | None = None
    domain: str | None = None
    description: str = ""
