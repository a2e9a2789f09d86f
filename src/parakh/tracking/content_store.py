"""The experiment's content store: one MLflow run (tagged `parakh.content_store`) whose
artifacts are files at `sha256/<first 2 hex>/<sha256>/<file name>`, so a file that many sweeps
log is uploaded once and referenced by the runs' manifests (docs/mlflow-dvc.md). `fetch`
downloads a manifest's files back, checking every hash (`parakh reproduce`).
"""

from __future__ import annotations

import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from parakh.errors import InputError
from parakh.hashing import sha256_path
from parakh.tracking.client import LEVEL

STORE_TAG = "parakh.content_store"
STORE_RUN_NAME = "parakh content store"
MANIFEST_FORMAT = 1
NOTE = (
    "Files of Parakh sweeps, each once, by content: sha256/<first 2 hex>/<sha256>/<file name>. "
    "A sweep's inputs/manifest.json and its model runs' samples/manifest.json say which file "
    "is which; `parakh reproduce` downloads them from here. Deleting this run breaks them."
)
_hashes: dict[tuple[str, int, int], str] = {}  # (file, size, mtime_ns) -> sha256


def file_sha256(path: Path) -> str:
    """sha256 of a file, computed once per process while its size and mtime stay the same."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _hashes:
        _hashes[key] = sha256_path(path)
    return _hashes[key]


def store_folder(sha256: str) -> str:
    return f"sha256/{sha256[:2]}/{sha256}"


@dataclass
class StoredFiles:
    """Files a run references in the content store instead of copying them; the run logs
    `manifest` (an artifact file) saying where each one is. `files`: name -> local file."""

    manifest: str
    files: dict[str, Path]

    def key_material(self) -> dict[str, Any]:
        return {
            "manifest": self.manifest,
            "files": {n: file_sha256(p) for n, p in sorted(self.files.items()) if p.exists()},
        }


@dataclass(frozen=True)
class StoredFile:
    """One manifest entry: `name` is where the file belongs (for a sweep's inputs, its path
    under `inputs/` as `parakh reproduce` lays them out), `artifact` its path in run `run_id`."""

    name: str
    sha256: str
    bytes: int
    run_id: str
    artifact: str


def _store_runs(client: Any, exp_id: str) -> list[str]:
    """The experiment's active store runs, oldest first (several only after a race)."""
    found = client.search_runs(
        [exp_id], filter_string=f"tags.`{STORE_TAG}` = 'true'", max_results=100
    )
    return [r.info.run_id for r in sorted(found, key=lambda r: (r.info.start_time, r.info.run_id))]


def store_run(client: Any, exp_id: str) -> str:
    """The experiment's store run, created the first time. Two processes creating it at once
    both find the older one afterwards; the other, still empty, is deleted."""
    found = _store_runs(client, exp_id)
    if found:
        return found[0]
    tags = {STORE_TAG: "true", LEVEL: "content_store", "mlflow.note.content": NOTE}
    created = str(client.create_run(exp_id, tags=tags, run_name=STORE_RUN_NAME).info.run_id)
    client.set_terminated(created)
    first = _store_runs(client, exp_id)[0]
    if first != created:
        client.delete_run(created)
    return str(first)


@dataclass
class ContentStore:
    """Puts files into an experiment's store run (found or created on first use), each hash
    once; counts what it uploaded and what it found already there."""

    client: Any
    experiment_id: str
    run_id: str | None = None
    uploaded: dict[str, StoredFile] = field(default_factory=dict)  # sha256 -> first entry
    reused: dict[str, StoredFile] = field(default_factory=dict)  # held before this process

    def put(self, name: str, path: Path) -> StoredFile:
        """Upload `path` unless the store holds its hash already; where it is, either way."""
        if self.run_id is None:
            self.run_id = store_run(self.client, self.experiment_id)
        sha, size = file_sha256(path), path.stat().st_size
        known = self.uploaded.get(sha) or self.reused.get(sha)
        if known is not None:
            return StoredFile(name, sha, size, self.run_id, known.artifact)
        artifact = self._find(sha, size)
        if artifact is not None:
            self.reused[sha] = StoredFile(name, sha, size, self.run_id, artifact)
            return self.reused[sha]
        folder = store_folder(sha)
        self.client.log_artifact(self.run_id, str(path), artifact_path=folder)
        self.uploaded[sha] = StoredFile(name, sha, size, self.run_id, f"{folder}/{path.name}")
        return self.uploaded[sha]

    def _find(self, sha: str, size: int) -> str | None:
        """A file the store holds under `sha`, whole (a cut-off upload has the wrong size)."""
        for info in self.client.list_artifacts(self.run_id, store_folder(sha)):
            if not info.is_dir and info.file_size in (size, None):
                return str(info.path)
        return None

    def manifest(self, files: dict[str, Path]) -> dict[str, Any]:
        """Put every existing file; the manifest a run logs about them."""
        entries = [self.put(n, p) for n, p in sorted(files.items()) if p.exists()]
        return {"format": MANIFEST_FORMAT, "files": [asdict(e) for e in entries]}

    def summary(self) -> str:
        sent = sum(f.bytes for f in self.uploaded.values())
        kept = sum(f.bytes for f in self.reused.values())
        return (
            f"content store {self.run_id}: {len(self.uploaded)} files uploaded "
            f"({sent / 1e6:.1f} MB), {len(self.reused)} referenced already stored "
            f"({kept / 1e6:.1f} MB not copied again)"
        )


def fetch(uri: str, manifest: dict[str, Any], folder: Path, scratch: Path) -> list[Path]:
    """Download every file of `manifest` from the store to `folder/<name>`, checking its
    sha256; `scratch` holds the downloads on the way. Returns the files written."""
    from mlflow.artifacts import download_artifacts

    written = []
    for entry in (StoredFile(**e) for e in manifest.get("files", [])):
        relative = PurePosixPath(entry.name)
        if relative.is_absolute() or ".." in relative.parts or not relative.parts:
            raise InputError(
                entry.name, "a manifest entry must be a relative path inside its folder"
            )
        target = folder.joinpath(*relative.parts)
        local = Path(
            download_artifacts(
                run_id=entry.run_id,
                artifact_path=entry.artifact,
                dst_path=str(scratch),
                tracking_uri=uri,
            )
        )
        if sha256_path(local) != entry.sha256:
            raise InputError(
                f"{entry.run_id}/{entry.artifact}",
                f"its content does not match sha256 {entry.sha256} the manifest records",
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(local), target)
        written.append(target)
    return written
