"""What curate dropped, for a leaderboard's header: rows in, questions kept, rows dropped per
reason, read from the curation report (`curate/report.json`) beside the curated questions, so
a reader sees what the figures are over without opening that report.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from parakh.errors import InputError


@dataclass(frozen=True)
class CurationSummary:
    rows_in: int
    rows_out: int
    dropped: dict[str, int] = field(default_factory=dict)  # reason -> rows, only non-zero
    quarantined: int = 0

    @classmethod
    def read(cls, path: Path) -> CurationSummary | None:
        """The counts of a curation report; None when curate wrote none there."""
        if not path.exists():
            return None
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
            return cls(
                rows_in=int(report["rows_in"]),
                rows_out=int(report["rows_out"]),
                dropped={str(k): int(v) for k, v in sorted(report["dropped"].items()) if v},
                quarantined=int(report.get("quarantined", 0)),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise InputError(
                path, f"not a curation report (rows_in, rows_out, dropped): {e}"
            ) from e

    def text(self) -> str:
        """One line: `1,190 rows in, 1,183 kept; dropped: duplicate_text 7`."""
        line = f"{self.rows_in:,} rows in, {self.rows_out:,} kept"
        if not self.dropped:
            return f"{line}; none dropped"
        reasons = ", ".join(f"{reason} {n:,}" for reason, n in self.dropped.items())
        line = f"{line}; dropped: {reasons}"
        if self.quarantined:
            line += f" ({self.quarantined:,} of them quarantined)"
        return line

    def document(self) -> dict[str, Any]:
        """The `curation` object of leaderboard.json."""
        return asdict(self)
