"""A 30%-fault drill (429/500/timeout/garbage mixed), smaller than bench/faults.py: count in =
count out, every row a success or an explicit error, and the re-run finishes the errors."""

from __future__ import annotations

import pytest

from tests.support.drills import fault_drill

pytestmark = pytest.mark.server


def test_faults_end_as_rows_and_the_rerun_redoes_only_them() -> None:
    result = fault_drill(n=240, fail_rate=0.3, latency_s=0.0, concurrency=16, seed=3)
    first, rerun = result["first_run"], result["rerun"]
    assert first["count_in_equals_count_out"] and first["every_row_ok_or_explicit_error"]
    assert first["errors"] > 0 and set(first["errors_by_kind"]) <= {
        "429",
        "5xx",
        "timeout",
        "garbage",
    }
    assert all(first["server_faults"][kind] > 0 for kind in ("429", "500", "timeout", "garbage"))
    assert rerun["rows_out"] == 240 and rerun["asked_only_previous_errors"]
    assert rerun["backend_items"] == first["errors"] and rerun["errors_left"] == 0
