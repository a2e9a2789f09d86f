"""README.md stays an on-ramp and every relative link in it and in docs/ resolves.

README.md holds at most 200 lines (issue #17: what Parakh is, the two commands, a real-data
quick start, where configuration lives, what to touch to add each kind of thing); reference
text lives in docs/, one page per task, each linked from the README.

Shell and Python blocks that a reader can run as printed, offline and in seconds, are marked
with an HTML comment line `<!-- runnable -->` right before their opening fence (```bash or
```python); tests/test_docs_runnable.py runs each marked block in a throw-away copy of the
project and fails on a non-zero exit. An unmarked block is documentation only.

A link `[text](target)` outside code (fenced blocks and inline code) that is not a URL must name
an existing file or folder, relative to the page it is on; `page.md#anchor` (or `#anchor` on the
same page) must name a heading of that page, slugged as GitHub does: lowercase, everything but
letters, marks, digits, `_`, `-` and spaces dropped, spaces to `-`, `-1`, `-2`, ... after a
repeated slug.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    kept = "".join(
        c
        for c in heading.lower()
        if c in " -_" or unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Pc"
    )
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in _prose_lines(page.read_text(encoding="utf-8")):
        m = _HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(page: Path) -> list[tuple[int, str]]:
    """(line number, target) of every link on the page outside code; link text may wrap."""
    text = page.read_text(encoding="utf-8")
    prose = dict(_prose_lines(text))
    # Code blocks become blank lines and inline code spaces, so line numbers stay true.
    kept = [
        _INLINE_CODE.sub(lambda m: " " * len(m.group(0)), prose.get(number, ""))
        for number in range(1, len(text.splitlines()) + 1)
    ]
    joined = "\n".join(kept)
    return [(joined.count("\n", 0, m.start()) + 1, m.group(1)) for m in _LINK.finditer(joined)]


def test_the_slug_follows_github() -> None:
    assert slug("DVC experiments: `-S`, `--queue`") == "dvc-experiments--s---queue"
    assert slug("Sweeps on many processes and on SLURM: Hydra launchers") == (
        "sweeps-on-many-processes-and-on-slurm-hydra-launchers"
    )
    assert slug('Parakh (परख, "assay")') == "parakh-परख-assay"
    assert slug("snake_case and 2.0") == "snake_case-and-20"


def test_the_pages_exist() -> None:
    assert README.is_file()
    assert DOCS, "docs/*.md holds the reference pages"


def test_the_readme_is_an_on_ramp() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; move reference text to docs/"


def test_the_readme_links_every_docs_page() -> None:
    linked = {
        (README.parent / target.split("#")[0]).resolve()
        for _, target in links(README)
        if not _URL.match(target) and not target.startswith("#")
    }
    missing = [p.name for p in DOCS if p.resolve() not in linked]
    assert not missing, f"README.md links no docs page {missing}"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_resolves(page: Path) -> None:
    problems = []
    for number, target in links(page):
        if _URL.match(target):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        where = f"{page.relative_to(ROOT)}:{number}: {target}"
        if not dest.exists():
            problems.append(f"{where}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{where}: no heading with that anchor in {dest.relative_to(ROOT)}")
    assert not problems, "\n".join(problems)
