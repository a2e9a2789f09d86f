"""Content hashes for cache keys, run specs and MLflow tags."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

# one encoder for every call: json.dumps builds one per call, a fifth of a small row's cost
_CANONICAL = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def canonical_json(obj: Any) -> str:
    return _CANONICAL.encode(obj)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sha256_obj(obj: Any) -> str:
    return sha256_text(canonical_json(obj))


def sha256_path(path: str | Path) -> str:
    """Hash a file, or a folder as the hash of its sorted (relative path, file hash) pairs."""
    p = Path(path)
    if p.is_file():
        h = hashlib.sha256()
        with p.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    entries = [
        (str(f.relative_to(p)), sha256_path(f))
        for f in sorted(p.rglob("*"))
        if f.is_file() and not f.name.startswith(".")
    ]
    return sha256_obj(entries)
