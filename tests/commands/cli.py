"""Running the `parakh` command in-process, as a user's shell would: exit code, stdout, stderr."""

from __future__ import annotations

import pytest

from parakh.cli import main as cli_main


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        cli_main(args)
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err
