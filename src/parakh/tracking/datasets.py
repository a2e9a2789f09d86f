"""The evaluation dataset as an MLflow run input (`log_inputs`). Its digest is the curated
questions file's sha256 (cut to MLflow's limit; whole in the profile), so runs on the same
questions show the same dataset and a changed file a new version.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parakh.config.stage_config import ParakhConfig
from parakh.hashing import sha256_path
from parakh.report.row_files import QuestionView
from parakh.stage_outputs import Layout

DIGEST_CHARS = 32  # mlflow.utils.validation.MAX_DATASET_DIGEST_SIZE is 36
CONTEXT = "eval"  # the input's mlflow.data.context tag: what the run did with the dataset


@dataclass(frozen=True)
class DatasetRef:
    name: str
    digest: str
    source_type: str
    source: dict[str, str]
    profile: dict[str, Any]

    def run_input(self) -> Any:
        from mlflow.entities import Dataset, DatasetInput, InputTag
        from mlflow.utils.mlflow_tags import MLFLOW_DATASET_CONTEXT

        dataset = Dataset(
            name=self.name,
            digest=self.digest,
            source_type=self.source_type,
            source=json.dumps(self.source, sort_keys=True),
            schema=None,
            profile=json.dumps(self.profile, sort_keys=True, ensure_ascii=False),
        )
        return DatasetInput(dataset, tags=[InputTag(MLFLOW_DATASET_CONTEXT, CONTEXT)])

    def key_material(self) -> dict[str, Any]:
        return {"name": self.name, "digest": self.digest, "source": self.source}


def dataset_ref(
    cfg: ParakhConfig, layout: Layout, questions: Sequence[QuestionView]
) -> DatasetRef | None:
    """The curated questions of this run as a dataset; None when curate wrote none."""
    path = layout.curated_questions
    if not path.is_file():
        return None
    sha256 = sha256_path(path)
    upstream = cfg.dataset.source
    if upstream is not None:
        source_type, source = "http", {"url": upstream.url}
    else:
        source_type, source = "local", {"uri": cfg.dataset.path}
    profile = {
        "num_rows": len(questions),
        "languages": dict(sorted(Counter(q.language for q in questions).items())),
        "sha256": sha256,
        "curated": f"{cfg.dataset.name}/curate/{path.name}",
    }
    return DatasetRef(cfg.dataset.name, sha256[:DIGEST_CHARS], source_type, source, profile)
