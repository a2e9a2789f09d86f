"""Benchmarks keep every item: curate's duplicate-text filter is a chat-log step (`dedupe`,
set in cataractbot.yaml and demo.yaml), off for every benchmark config.

On the upstream fixtures (real files at the pinned commits, tests/datasets/fixtures/README.md),
whose items include the same question twice (XQuAD's "Who won Super Bowl XLIX?" over one
paragraph, MedQuAD's "What is (are) Glaucoma ?" with five answers), and on the whole shared
mirror, curate drops nothing a benchmark holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.config import compose
from parakh.datasets import load_dataset
from parakh.stages.curate import run
from tests.datasets.mirror import mirror_folder

FIXTURES = Path(__file__).parent / "fixtures"
BENCHMARKS = ["xquad_hi", "xquad_en", "medquad", "indicquest", "liveqa_judgments", "nomiracl"]
CHAT_LOGS = ["cataractbot", "demo"]


def _curated(config: str, source: Path) -> dict[str, object]:
    cfg = compose([f"dataset={config}"])
    ds = cfg.dataset
    loaded = load_dataset(ds.adapter, source, ds.options, strict=ds.strict)
    return run(cfg, loaded).report


@pytest.mark.parametrize("config", BENCHMARKS)
def test_benchmark_configs_keep_repeated_questions(config: str) -> None:
    assert compose([f"dataset={config}"]).dataset.dedupe == "none"


@pytest.mark.parametrize("config", CHAT_LOGS)
def test_chat_log_configs_merge_repeated_messages(config: str) -> None:
    assert compose([f"dataset={config}"]).dataset.dedupe == "normalized"


@pytest.mark.parametrize(
    ("config", "source", "items"),
    [
        ("xquad_hi", "xquad_upstream/xquad.hi.json", 30),
        ("xquad_en", "xquad_upstream/xquad.en.json", 30),
        ("medquad", "medquad_upstream", 16),
        ("indicquest", "indicquest_upstream/L3Cube-IndicQuest", 40),
        ("liveqa_judgments", "liveqa_upstream", 3),
    ],
)
def test_upstream_fixture_keeps_every_item(config: str, source: str, items: int) -> None:
    report = _curated(config, FIXTURES / source)
    assert report["rows_in"] == report["rows_out"] == items
    assert report["dropped"] == {}


def test_the_same_question_twice_is_two_xquad_items() -> None:
    report = _curated("xquad_en", FIXTURES / "xquad_upstream" / "xquad.en.json")
    assert report["rows_out"] == 30 and report["merged_reference_answers"] == 0


@pytest.mark.parametrize(  # the mirror's subsets (its READMEs); upstream's whole files: by hand
    ("config", "items"),
    [("xquad_hi", 880), ("xquad_en", 880), ("medquad", 429), ("indicquest", 3080)],
)
def test_mirror_benchmarks_keep_every_item(config: str, items: int, shared_data: Path) -> None:
    report = _curated(config, mirror_folder(shared_data, config))
    assert report["rows_in"] == report["rows_out"] == items
    assert report["dropped"] == {}


@pytest.mark.parametrize("config", ["nomiracl", "liveqa_judgments"])
def test_mirror_benchmarks_lose_nothing_to_dedupe(config: str, shared_data: Path) -> None:
    report = _curated(config, mirror_folder(shared_data, config))
    assert "duplicate_text" not in report["dropped"]  # type: ignore[operator]


@pytest.mark.parametrize(
    ("config", "source", "in_mirror"),
    [
        ("xquad_en", "xquad_upstream/xquad.en.json", 30),
        ("xquad_hi", "xquad_upstream/xquad.hi.json", 30),
        ("indicquest", "indicquest_upstream/L3Cube-IndicQuest", 40),
        ("medquad", "medquad_upstream", 14),  # the mirror's subset holds 14 of the 16
    ],
)
def test_fixture_items_are_the_mirrors_items(
    config: str, source: str, in_mirror: int, shared_data: Path
) -> None:
    """The fixtures are upstream's own files: every item the mirror also holds has the same id,
    text and reference answers there."""
    ds = compose([f"dataset={config}"]).dataset
    fixture = load_dataset(ds.adapter, FIXTURES / source, ds.options, strict=True).questions
    mirror = load_dataset(ds.adapter, mirror_folder(shared_data, config), ds.options, strict=True)
    by_id = {q.id: q for q in mirror.questions}
    shared = [q for q in fixture if q.id in by_id]
    assert len(shared) == in_mirror
    for q in shared:
        assert (q.text, q.reference_answers) == (by_id[q.id].text, by_id[q.id].reference_answers)
