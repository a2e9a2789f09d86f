"""Run one function in several processes that start at the same moment (a barrier), the way
parallel jobs of a sweep hit shared state: the response cache, an MLflow store or server.

Each process calls `target(*args, start)`; `start` is the barrier, which the target waits on
(once, or once per round) before the part that must overlap. A process that fails aborts the
barrier, so the others stop waiting, and its traceback comes back to the caller.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable, Sequence
from typing import Any


def _call(
    target: Callable[..., Any], index: int, args: Sequence[Any], start: Any, out: Any
) -> None:
    try:
        out.put((index, None, target(*args, start)))
    except BaseException:
        start.abort()
        out.put((index, traceback.format_exc(), None))


def run_together(
    target: Callable[..., Any],
    argsets: Sequence[Sequence[Any]],
    *,
    method: str = "spawn",
    timeout_s: float = 240.0,
) -> list[Any]:
    """What each process's `target` returned, in the order of `argsets`; AssertionError with
    every failing process's traceback if any failed. `method="spawn"` starts fresh
    interpreters, as separate jobs are; `"fork"` shares the imports already made."""
    context: Any = multiprocessing.get_context(method)
    start = context.Barrier(len(argsets))
    out = context.Queue()
    processes = [
        context.Process(target=_call, args=(target, i, args, start, out))
        for i, args in enumerate(argsets)
    ]
    for process in processes:
        process.start()
    outcomes = {}
    for _ in processes:
        index, error, value = out.get(timeout=timeout_s)
        outcomes[index] = (error, value)
    for process in processes:
        process.join(timeout=30)
    failures = [error for error, _ in outcomes.values() if error is not None]
    assert not failures, "\n".join(failures)
    return [outcomes[i][1] for i in range(len(argsets))]
