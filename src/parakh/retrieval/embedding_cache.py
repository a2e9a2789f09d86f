"""Embeddings cached on disk by content hash, so unchanged chunks are never embedded twice.

The key is sha256 of the embedder's identity (model, revision, prefixes), the role and the
exact text; nothing else changes a vector. One SQLite file beside the response cache, safe to
delete, shared by the index stage and the extractive baseline (`embedders.CachedEmbedder`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from parakh.hashing import sha256_obj
from parakh.sqlite_store import open_store, readable

EMBEDDINGS_FILE = "embeddings.sqlite"
_TABLE = (
    "CREATE TABLE IF NOT EXISTS embeddings (key TEXT PRIMARY KEY, dim INTEGER NOT NULL, "
    "vector BLOB NOT NULL)"
)


def beside_response_cache(response_cache: str | Path) -> Path:
    """Where the embedding cache lives: in the folder of the response cache (`paths.cache`)."""
    return Path(response_cache).with_name(EMBEDDINGS_FILE)


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
