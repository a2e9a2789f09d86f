"""Generation throughput: 2,000 requests against the fault-free server (200 ms per answer) at
concurrency 32, through the whole path the generate stage uses (OpenAIBackend with its default
aiohttp transport, the response cache, the fsynced progress file).

Acceptance: wall time <= 1.05 x ideal, where ideal = requests x latency / concurrency = 12.5 s.
`--sdk-too` also times the same run through the openai SDK's client (`transport: sdk`), for
comparison in the same session; the bound applies to the default transport.
Writes bench/results/generate_throughput.json with both numbers, the ratio, the machine's load
average before and after (other work on the 2 cores slows every run), the process niceness
(`--niceness -10` shields the timing from other work on a shared machine), and each repeat.

    python bench/generate_throughput.py [--requests 2000] [--latency 0.2] [--concurrency 32]
        [--repeats N] [--niceness -10] [--sdk-too] [--output PATH]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

from parakh.io import write_json

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: tests.support
from tests.support.drills import throughput_drill  # noqa: E402

OUTPUT = Path(__file__).resolve().parent / "results" / "generate_throughput.json"
BOUND = 1.05


def summarize_runs(runs: list[dict[str, Any]], requests: int) -> dict[str, Any]:
    """Best and median of the repeats, each against the bound (the machine is shared: other
    work on its 2 cores lengthens some runs; every run is kept with its load average)."""
    ratios = sorted(r["ratio_to_ideal"] for r in runs)
    best = min(runs, key=lambda r: r["wall_s"])
    median = statistics.median(ratios)
    complete = all(r["ok"] == requests for r in runs)
    return {
        "bound_ratio_to_ideal": BOUND,
        "ideal_wall_s": best["ideal_wall_s"],
        "best_wall_s": best["wall_s"],
        "best_ratio_to_ideal": best["ratio_to_ideal"],
        "median_ratio_to_ideal": round(median, 4),
        "passes": best["ratio_to_ideal"] <= BOUND and complete,
        "passes_median": median <= BOUND and complete,
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument(
        "--niceness", type=int, default=None, help="e.g. -10 (root): less disturbed timing"
    )
    parser.add_argument("--sdk-too", action="store_true", help="also time transport=sdk")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    runs, sdk_runs = [], []
    for _ in range(args.repeats):  # interleaved, so both see the same machine load
        runs.append(
            throughput_drill(args.requests, args.latency, args.concurrency, niceness=args.niceness)
        )
        if args.sdk_too:
            sdk_runs.append(
                throughput_drill(
                    args.requests,
                    args.latency,
                    args.concurrency,
                    niceness=args.niceness,
                    transport="sdk",
                )
            )
    result = summarize_runs(runs, args.requests)
    if sdk_runs:
        result["sdk_transport_runs"] = sdk_runs
    write_json(args.output, result)
    for run in runs + sdk_runs:
        print(
            f"{run['transport']}: {run['requests']} requests: wall {run['wall_s']:.2f} s, ideal "
            f"{run['ideal_wall_s']:.2f} s, ratio {run['ratio_to_ideal']:.3f} "
            f"(load {run['loadavg_before'][0]:.1f})"
        )
    print(
        f"best {result['best_ratio_to_ideal']:.3f}, median {result['median_ratio_to_ideal']:.3f}: "
        f"{'PASS' if result['passes'] else 'FAIL'} (bound {BOUND}) -> {args.output}"
    )


if __name__ == "__main__":
    main()
