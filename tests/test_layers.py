"""The packages of src/parakh as layers (docs/architecture.md): a module imports only from its
own layer or the layers below, no two modules import each other, and no two packages do.

Every import counts, at the top of a module or inside a function (a lazy import is still a
dependency); `if TYPE_CHECKING:` imports are annotations only and are left out.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from tests.conftest import REPO

SRC = REPO / "src" / "parakh"

# Bottom to top. A package (folder) or a top-level module of parakh, by its first name part.
LAYERS: list[set[str]] = [
    {
        "errors",
        "hashing",
        "project",
        "io",
        "secrets",
        "sqlite_store",
        "schema",
        "text",
        "stats",
        "row_coverage",
        "plugins",
        "__init__",
    },  # fmt: skip
    {"config"},
    {"stage_outputs", "datasets", "metrics", "prompts", "retrieval"},
    {"curation", "backends"},
    {"judging", "translation"},
    {"report"},
    {"tracking", "scale"},
    {"stages", "commands", "results", "evaluate_metrics", "cli"},
]
LAYER_OF = {name: i for i, names in enumerate(LAYERS) for name in names}


def _modules() -> dict[str, Path]:
    out = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return {name for name in found if name == "parakh" or name.startswith("parakh.")}


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: {m for m in _imports(path) if m in modules and m != name}
        for name, path in modules.items()
    }


def test_every_package_has_a_layer() -> None:
    unplaced = sorted({_package(m) for m in _modules()} - set(LAYER_OF))
    assert not unplaced, f"put {unplaced} in a layer (tests/test_layers.py, docs/architecture.md)"


def test_no_module_imports_from_a_higher_layer() -> None:
    upward = [
        f"{module} ({_package(module)}, layer {LAYER_OF[_package(module)]}) imports {target} "
        f"({_package(target)}, layer {LAYER_OF[_package(target)]})"
        for module, targets in _graph().items()
        for target in targets
        if LAYER_OF[_package(target)] > LAYER_OF[_package(module)]
    ]
    assert not upward, "\n".join(upward)


def test_no_two_modules_import_each_other() -> None:
    graph = _graph()
    pairs = sorted({tuple(sorted((a, b))) for a in graph for b in graph[a] if a in graph[b]})
    assert not pairs, pairs


def test_no_two_packages_import_each_other() -> None:
    packages: dict[str, set[str]] = defaultdict(set)
    for module, targets in _graph().items():
        packages[_package(module)].update(_package(t) for t in targets)
    pairs = sorted(
        {
            tuple(sorted((a, b)))
            for a in packages
            for b in packages[a]
            if a != b and a in packages[b]
        }
    )
    assert not pairs, pairs


def test_the_architecture_page_lists_every_layer() -> None:
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    for names in LAYERS:
        for name in names - {"__init__"}:
            assert f"`{name}`" in page, f"docs/architecture.md does not name `{name}`"
