"""The HTML pages render in headless Chromium without script errors, and a screenshot shows
the leaderboard table and the heatmap. Skips cleanly when no Chromium binary is installed
(Debian: `apt-get install -y chromium`; .ci/run installs it)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from parakh.report.files import ReportFiles
from parakh.report.html import colour

pytestmark = pytest.mark.slow

BINARIES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
]
LEADERBOARD_HEADER = (0x1F, 0x3A, 0x5F)  # thead background in report/templates/page.css


@pytest.fixture(scope="module")
def chromium() -> str:
    for name in BINARIES:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium binary found (apt-get install -y chromium)")


def _run(binary: str, page: Path, profile: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = [binary, *FLAGS, f"--user-data-dir={profile}", *extra, page.resolve().as_uri()]
    out = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out


def _dom(binary: str, page: Path, profile: Path) -> str:
    out = _run(binary, page, profile, "--enable-logging=stderr", "--v=0", "--dump-dom")
    console_errors = [
        line for line in out.stderr.splitlines() if "CONSOLE" in line and "Uncaught" in line
    ]
    assert not console_errors, console_errors
    return out.stdout


@pytest.mark.parametrize("page", ["report_html", "answers_html"])
def test_pages_render_without_script_errors(
    chromium: str, written_report: ReportFiles, tmp_path: Path, page: str
) -> None:
    dom = _dom(chromium, getattr(written_report, page), tmp_path / "profile")
    assert re.search(r'<body[^>]*data-rendered="ok"', dom), dom[:500]
    assert not re.search(r"<html[^>]*data-js-errors", dom)


def test_answers_filter_script_ran(
    chromium: str, written_report: ReportFiles, tmp_path: Path
) -> None:
    dom = _dom(chromium, written_report.answers_html, tmp_path / "profile")
    assert re.search(r'id="f-count"[^>]*>24 of 24 questions<', dom)


def _pixels(png: Path) -> dict[tuple[int, int, int], int]:
    from PIL import Image

    with Image.open(png) as image:
        counts = image.convert("RGB").getcolors(maxcolors=1 << 24) or []
    return {rgb: n for n, rgb in counts}


def test_screenshot_shows_leaderboard_table_and_heatmap(
    chromium: str, written_report: ReportFiles, tmp_path: Path
) -> None:
    shot = tmp_path / "report.png"
    _run(
        chromium,
        written_report.report_html,
        tmp_path / "profile",
        "--window-size=1280,1400",
        f"--screenshot={shot}",
    )
    assert shot.stat().st_size > 10_000
    pixels = _pixels(shot)
    # the leaderboard header row (and the heatmap's) is drawn in the header colour
    assert pixels.get(LEADERBOARD_HEADER, 0) > 5_000
    document = json.loads(written_report.leaderboard_json.read_text(encoding="utf-8"))
    primary = document["primary_metric"]
    heatmap = {
        colour(c["mean"] / c["scale_max"])
        for c in document["cells"]
        if c["metric"] == primary and c["dimension"] in ("language", "all")
    }
    assert len(heatmap) >= 3
    for hex_colour in heatmap:
        rgb = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
        assert pixels.get(rgb, 0) > 150, f"heatmap colour {hex_colour} not on screen"
