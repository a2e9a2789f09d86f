"""Fault drill: 30% of attempts fail (429 with Retry-After, 500, timeouts, malformed JSON,
mixed) while 1,000 items are generated with a small retry budget, then the stage's re-run.

Checks, written to bench/results/faults.json: count in = count out; every item is a success or
an explicit error row with its reason; the re-run asks the backend only for the failed items
(successes come from the cache) and finishes them.

    python bench/faults.py [--requests 1000] [--fail-rate 0.3]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from parakh.io import write_json

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: tests.support
from tests.support.drills import fault_drill  # noqa: E402

OUTPUT = Path(__file__).resolve().parent / "results" / "faults.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--fail-rate", type=float, default=0.3)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    result = fault_drill(
        n=args.requests, fail_rate=args.fail_rate, concurrency=args.concurrency, seed=args.seed
    )
    first, rerun = result["first_run"], result["rerun"]
    result["passes"] = bool(
        first["count_in_equals_count_out"]
        and first["every_row_ok_or_explicit_error"]
        and first["errors"] > 0
        and rerun["rows_out"] == args.requests
        and rerun["asked_only_previous_errors"]
        and rerun["errors_left"] == 0
    )
    write_json(args.output, result)
    print(
        f"first run: {first['rows_out']}/{args.requests} rows, {first['ok']} ok, "
        f"{first['errors']} error rows {first['errors_by_kind']}, "
        f"{first['server_attempts']} attempts, faults {first['server_faults']}"
    )
    print(
        f"re-run: asked {rerun['backend_items']} items (the errors), "
        f"{rerun['errors_left']} errors left"
    )
    print(f"{'PASS' if result['passes'] else 'FAIL'} -> {args.output}")


if __name__ == "__main__":
    main()
