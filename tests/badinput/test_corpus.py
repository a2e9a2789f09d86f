"""The corpus itself (#16): at least 60 cases, and every numbered item of the issue among them.

A case is a test under tests/badinput whose id (its name or its parameter id) carries
`item<N>-`, N being the issue's numbered item it exercises.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter

from tests.conftest import REPO

ITEMS = range(1, 12)
MIN_CASES = 60


def test_the_corpus_has_sixty_cases_and_every_item() -> None:
    listed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "tests/badinput",
        ],  # fmt: skip
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    per_item = Counter(
        int(match.group(1))
        for line in listed.splitlines()
        if (match := re.search(r"item(\d+)[-_]", line))
    )
    assert sum(per_item.values()) >= MIN_CASES, per_item
    assert not [n for n in ITEMS if per_item[n] == 0], per_item
