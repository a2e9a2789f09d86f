"""Where each real dataset config's data sits in the shared mirror (../shared/data), for tests.

The product reads data/raw/<dataset config name>/ (what `parakh import-data` writes); tests read
the mirror folder directly, or import it with `--source`.
"""

from __future__ import annotations

from pathlib import Path

MIRROR_FOLDERS = {
    "cataractbot": "cataractbot",
    "indicquest": "indicquest",
    "liveqa_judgments": "liveqa_med_judgments",
    "medquad": "medquad",
    "nomiracl": "nomiracl",
    "xquad_en": "xquad",
    "xquad_hi": "xquad",
}


def mirror_folder(shared_data: Path, dataset: str) -> Path:
    return shared_data / MIRROR_FOLDERS[dataset]
