"""`parakh import-data`: bring a dataset's files to data/raw/<dataset> and track them in DVC.

    parakh import-data indicquest                       # upstream repo at the pinned commit
    parakh import-data nomiracl --source /data/nomiracl  # a local folder (or a file, or a URL)

A thin layer over DVC: `dvc import` of the upstream `source:` of conf/dataset/<dataset>.yaml
(one per file of `source.files`), `dvc import-url` for `--source` (docs/data.md).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

from parakh.config import compose
from parakh.config.dataset import DatasetConfig
from parakh.errors import ConfigError, MissingDependencyError, ParakhError
from parakh.project import project_root

HELP = "bring a dataset to data/raw/<dataset>, tracked by DVC"


class DataImportError(ParakhError):
    """dvc could not import the data (its own message is printed above)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", help="a conf/dataset/<name>.yaml name, e.g. indicquest")
    parser.add_argument(
        "--source",
        metavar="PATH_OR_URL",
        help="import this folder, file or URL instead of the upstream source in the config",
    )
    parser.add_argument(
        "--force", action="store_true", help="replace data/raw/<dataset> and its .dvc file"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the dvc command and run nothing"
    )


def dataset_config(name: str) -> DatasetConfig:
    """conf/dataset/<name>.yaml, composed and validated; an unknown name lists close matches."""
    return compose([f"dataset={name}"]).dataset


def import_commands(
    ds: DatasetConfig, source: str | None = None, force: bool = False
) -> list[list[str]]:
    """The dvc command lines that bring `ds`'s data to `ds.path` (data/raw/<dataset>): one,
    or one per file where upstream spreads the dataset over several (`source.files`)."""
    tail = ["--force"] if force else []
    if source is not None and "://" not in source:  # a local file or folder
        local = Path(source).expanduser().resolve()
        if not local.exists():
            raise ConfigError(f"--source {source}: no such file or folder")
        source = str(local)
    if source is not None:
        return [["dvc", "import-url", source, ds.path, *tail]]
    upstream = ds.source
    if upstream is None:
        raise ConfigError(
            f"dataset '{ds.name}' has no public source (conf/dataset/{ds.name}.yaml has no "
            f"`source:`; its data lives in git at {ds.path}). To import other data, give "
            f"--source PATH_OR_URL."
        )
    if not upstream.upstream_layout:
        raise ConfigError(
            f"dataset '{ds.name}': the '{ds.adapter}' adapter reads a layout derived from "
            f"upstream ({upstream.url}), not upstream's files. {upstream.note} Bring a folder "
            f"in that layout with `parakh import-data {ds.name} --source PATH_OR_URL`."
        )
    if upstream.files:
        return [
            ["dvc", "import", f.repo, f.path, "-o", f"{ds.path}/{PurePosixPath(f.path).name}"]
            + ["--rev", f.rev, *tail]
            for f in upstream.files
        ]
    if upstream.repo is not None:
        path, rev = upstream.path, upstream.rev
        assert path is not None and rev is not None  # DataSource checks
        return [["dvc", "import", upstream.repo, path, "-o", ds.path, "--rev", rev, *tail]]
    return [["dvc", "import-url", upstream.url, ds.path, *tail]]


def check_target(root: Path, ds: DatasetConfig, force: bool) -> tuple[Path, Path]:
    """A DVC project, and nothing at data/raw/<dataset> unless --force; returns that folder
    and its .dvc file."""
    if not (root / ".dvc").is_dir():
        raise ConfigError(
            f"{root} is not a DVC repository (no .dvc/ folder): run `git init && dvc init` "
            "there first"
        )
    target = root / ds.path
    dvc_file = target.with_name(target.name + ".dvc")
    existing = [p for p in (target, dvc_file) if p.exists()]
    if existing and not force:
        names = " and ".join(str(p.relative_to(root)) for p in existing)
        verb = "exist" if len(existing) > 1 else "exists"
        raise ConfigError(
            f"{names} already {verb}: use --force to replace it "
            f"(or `dvc update {dvc_file.relative_to(root)}` to follow a new upstream revision)"
        )
    return target, dvc_file


def dvc_executable() -> str:
    """`dvc` on PATH, else the one installed beside this Python."""
    found = shutil.which("dvc") or shutil.which("dvc", path=str(Path(sys.executable).parent))
    if found is None:
        raise MissingDependencyError("dvc", "pip install 'dvc>=3.50'")
    return found


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def _untrack(root: Path, path: str) -> list[str]:
    """Stop git tracking the files under `path` (kept on disk); returns them."""
    listed = subprocess.run(
        ["git", "ls-files", "--", path], cwd=root, capture_output=True, text=True, check=False
    )
    files = listed.stdout.split()
    if files:
        subprocess.run(["git", "rm", "-r", "-q", "--cached", "--", path], cwd=root, check=False)
    return files


def run(args: argparse.Namespace) -> int:
    ds = dataset_config(args.dataset)
    commands = import_commands(ds, args.source, args.force)
    if args.dry_run:
        print("\n".join(" ".join(command) for command in commands))
        return 0
    root = project_root()
    target, dvc_file = check_target(root, ds, args.force)
    target.parent.mkdir(parents=True, exist_ok=True)  # dvc needs data/raw/
    # dvc would import *into* an existing folder: --force moves the folder and its .dvc file
    # aside, and back if any import fails, so a failure leaves what was there before.
    moved = [(p, p.with_name(f".{p.name}.replaced")) for p in (target, dvc_file)]
    for path, aside in moved:
        if path.exists() or path.is_symlink():
            _remove(aside)
            path.rename(aside)
    # A folder that git tracks (the .dvc files of an import of upstream files) cannot become a
    # DVC output: untrack it for the new import, and track it again if the import fails.
    untracked = _untrack(root, ds.path) if args.force else []
    if len(commands) > 1:
        target.mkdir()
    for command in commands:
        print("$ " + " ".join(command), flush=True)
        done = subprocess.run([dvc_executable(), *command[1:]], cwd=root, check=False)
        if done.returncode != 0:
            for path, aside in moved:
                _remove(path)
                if aside.exists() or aside.is_symlink():
                    aside.rename(path)
            if untracked:
                subprocess.run(["git", "add", "-f", "--", *untracked], cwd=root, check=False)
            raise DataImportError(
                f"`{' '.join(command)}` failed (exit {done.returncode}); see dvc's message "
                f"above. {_failure_hint(ds, command, args.source)} Nothing was changed: "
                f"{ds.path} holds what it held before."
            )
    for _, aside in moved:
        _remove(aside)
    # the .dvc file of each command's output: data/raw/<dataset>.dvc, or one per upstream file
    tracked = [f"{c[c.index('-o') + 1] if '-o' in c else c[3]}.dvc" for c in commands]
    ignore = f"{ds.path}/.gitignore" if len(tracked) > 1 else f"{Path(ds.path).parent}/.gitignore"
    print(
        f"import-data: {ds.name} -> {ds.path}, tracked by {' and '.join(tracked)}. Commit it: "
        f"git add {' '.join(tracked)} {ignore} && git commit -m 'Import {ds.name}'"
    )
    return 0


def _failure_hint(ds: DatasetConfig, command: list[str], source: str | None) -> str:
    """What to check when dvc could not bring the data (dvc's own message for a path that
    upstream lacks is a bare `unexpected error - ['<path>']`)."""
    conf = f"conf/dataset/{ds.name}.yaml"
    if command[1] == "import":
        repo, path, rev = command[2], command[3], command[command.index("--rev") + 1]
        return (
            f"Check that {path} exists in {repo} at commit {rev} (`source` in {conf}), and "
            "that git can reach the repository."
        )
    where = source if source is not None else f"the `source.url` of {conf}"
    return f"Check that {where} can be read from this machine."
