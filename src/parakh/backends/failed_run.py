"""When a generation run is a failure, not a finished stage full of error rows, and what it says.

A closed port, a 404, a wrong key: every request fails, each becomes an honest error row, and
a stage that exited 0 would let `dvc repro` record those rows as the model's answers. So a run
where every answer, or more than `generation.max_failed_share` of them, is an error fails after
its rows are written (a re-run asks again only for the failed ones), with a message naming the
model, how many failed, the most common reasons and what to do.

Backends that ask nothing are left out: a replay model's error rows are answers its stored file
lacks, and the extractive baseline's say a question came without passages. Both are what the
data holds, the same on every run, and a dataset may legitimately lack most of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from parakh.errors import ParakhError

TOP_REASONS = 3
REASON_CHARS = 200
ANSWERS_FROM_DATA = frozenset({"replay", "extractive"})  # backends that send no request


class FailedRunError(ParakhError):
    """Too many of a run's requests failed; its rows are written, the stage is not done."""


def check_failed_share(
    model: str,
    backend: str,
    errors: Sequence[str | None],
    max_failed_share: float,
    rows_path: Path,
) -> None:
    """Raise FailedRunError when the run failed (never for a backend in ANSWERS_FROM_DATA).

    `errors` holds one entry per answer: its error text, or None for an answer."""
    total = len(errors)
    failed = [e or "no answer" for e in errors if e is not None]
    if backend in ANSWERS_FROM_DATA or not failed:
        return
    share = len(failed) / total
    if len(failed) < total and share <= max_failed_share:
        return
    how_many = (
        "all of them"
        if len(failed) == total
        else f"{share:.0%}, more than generation.max_failed_share={max_failed_share:g}"
    )
    reasons = "\n".join(
        f"  {count} x {_short(reason)}"
        for reason, count in Counter(failed).most_common(TOP_REASONS)
    )
    raise FailedRunError(
        f"model '{model}': {len(failed)} of {total} requests failed ({how_many}). "
        f"Most common reasons:\n{reasons}\n"
        f"Every row is written, with its reason, to {rows_path}, but the stage is not done. "
        "Check the model's base_url, that its server is up and serves its model_id, and its "
        "API key (`api_key_env`), then run the stage again: it asks again only for the failed "
        "ones (errors are never cached). To accept a larger share of failures, raise "
        "generation.max_failed_share (a run where every request failed always fails)."
    )


def _short(reason: str) -> str:
    flat = " ".join(reason.split())
    return flat if len(flat) <= REASON_CHARS else flat[: REASON_CHARS - 3] + "..."
