"""conf/dataset/*.yaml: every key overridable without `+`, data under data/raw/<name>, each real
dataset's public source recorded, and no product file naming the shared mirror."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
import yaml

from parakh.config import compose
from parakh.config.dataset import DatasetConfig
from parakh.config.loading import available
from parakh.errors import ConfigError
from tests.conftest import REPO

DATASETS = available("dataset")

# An override for every DatasetConfig field (no `+`), and what the composed field then holds.
OVERRIDES: dict[str, tuple[str, Any]] = {
    "name": ("renamed", "renamed"),
    "adapter": ("squad", "squad"),
    "path": ("data/raw/elsewhere", "data/raw/elsewhere"),
    "prompt": ("healthbot", "healthbot"),
    "source": ("null", None),
    "limit": ("7", 7),
    "per_language": ("5", 5),
    "languages": ("[hi,kn]", ["hi", "kn"]),
    "language": ("ta", "ta"),
    "domain": ("eye-care", "eye-care"),
    "fewshot_pool": ("data/raw/dev.jsonl", "data/raw/dev.jsonl"),
    "description": ("'a slice'", "a slice"),
    "options": ("{}", None),  # merged into the dataset's own options: checked only to compose
    "strict": ("false", False),
    "quarantine": ("q.jsonl", "q.jsonl"),
    "dedupe": ("exact", "exact"),
    "relevance_filter": ("my.module:keep", "my.module:keep"),
    "max_chars": ("{question:500}", None),
    "over_length": ("truncate", "truncate"),
    "pii": ("{enabled:false}", None),
    "categories": ("{tagger:none}", None),
}


def test_the_override_table_covers_every_field() -> None:
    assert set(OVERRIDES) == set(DatasetConfig.model_fields)


@pytest.mark.parametrize("dataset", DATASETS)
@pytest.mark.parametrize("field", sorted(OVERRIDES))
def test_every_field_is_overridable_without_plus(dataset: str, field: str) -> None:
    value, expected = OVERRIDES[field]
    cfg = compose([f"dataset={dataset}", f"dataset.{field}={value}"]).dataset
    if field == "pii":
        assert cfg.pii.enabled is False
    elif field == "categories":
        assert cfg.categories.tagger == "none"
    elif field == "max_chars":
        assert cfg.max_chars.question == 500 and cfg.max_chars.kb_document == 2_000_000
    elif expected is not None or field == "source":
        assert getattr(cfg, field) == expected


def test_base_holds_every_key_with_the_schema_default() -> None:
    base = yaml.safe_load((REPO / "conf/dataset/_base.yaml").read_text(encoding="utf-8"))
    assert set(base) == set(DatasetConfig.model_fields)
    for name, field in DatasetConfig.model_fields.items():
        if field.is_required():
            assert base[name] == "???", name
            continue
        default = field.get_default(call_default_factory=True)
        if hasattr(default, "model_dump"):
            default = default.model_dump()
        assert base[name] == default, name


def test_base_is_not_a_dataset() -> None:
    assert "_base" not in DATASETS and "demo" in DATASETS
    with pytest.raises(ConfigError, match="Unknown dataset '_base'"):
        compose(["dataset=_base"])


@pytest.mark.parametrize("dataset", DATASETS)
def test_data_lives_under_data_raw_and_real_datasets_name_their_source(dataset: str) -> None:
    cfg = compose([f"dataset={dataset}"]).dataset
    assert cfg.path == f"data/raw/{dataset}"
    if dataset == "demo":
        assert cfg.source is None  # ours, in git
        return
    source = cfg.source
    assert source is not None and source.licence and source.url.startswith("https://")
    pinned = source.files or [source]  # several upstream files, or one repo/path/rev
    for entry in pinned:
        assert entry.repo is not None and entry.repo.startswith("https://github.com/")
        assert entry.rev is not None and len(entry.rev) == 40
    if source.upstream_layout:
        assert all(entry.path is not None for entry in pinned)  # what `dvc import` brings
    else:
        assert source.note  # says how the adapter's layout is derived


def test_no_product_file_names_the_shared_mirror() -> None:
    """`grep -rn "shared/" conf src dvc.yaml params.yaml` finds nothing in git-tracked files."""
    tracked = subprocess.run(
        ["git", "ls-files", "conf", "src", "dvc.yaml", "params.yaml"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    hits = [
        f"{name}:{n}: {line.strip()}"
        for name in tracked
        if (REPO / name).is_file()
        for n, line in enumerate(
            (REPO / name).read_text(encoding="utf-8", errors="replace").splitlines(), start=1
        )
        if "shared/" in line
    ]
    assert hits == []


def test_demo_data_is_in_git() -> None:
    assert (REPO / "data/raw/demo/questions.jsonl").is_file()
