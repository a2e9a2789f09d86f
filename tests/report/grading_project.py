"""The synthetic project (tests/report/synthetic_project.py) made ready for grading sheets: its
Tamil questions become Urdu ones (and their judge rows Urdu rows), every answer is a text in the
question's language that names no model, and each question has retrieved chunks, one an Urdu
KB update."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from tests.report.synthetic_project import MODELS, make_project

from parakh.io import write_jsonl
from parakh.schema import Generation, Question, Retrieval, RetrievedChunk

URDU_QUESTION = "آنکھ کے آپریشن کے بعد میں کب نہا سکتا ہوں؟"
URDU_CHUNK = "آپریشن کے بعد ایک ہفتے تک سر نہ دھوئیں۔"
ANSWERS = {
    "en": ["Use the drops four times a day.", "Four times a day, for a month.", "Ask your doctor."],
    "hi": ["दिन में चार बार दवा डालें।", "एक महीने तक दवा डालें।", "डॉक्टर से पूछें। <script>x()</script>"],
    "ur": ["دن میں چار بار دوا ڈالیں۔", "ایک مہینے تک دوا ڈالیں۔", "ڈاکٹر سے پوچھیں۔"],
}


def _rewrite(path: Path, change: dict[str, str]) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        row["language"] = change.get(row["language"], row["language"])
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")


def make_grading_project(root: Path) -> Path:
    make_project(root)
    processed = root / "data" / "processed" / "demo"
    questions_path = processed / "curate" / "questions.jsonl"
    questions = [
        Question.model_validate_json(line) for line in questions_path.read_text().splitlines()
    ]
    for q in questions:
        if q.language == "ta":
            q.language, q.text = "ur", URDU_QUESTION
    write_jsonl(questions_path, questions)
    for model in MODELS:
        _rewrite(processed / "judge" / "smoke" / f"{model}.jsonl", {"ta": "ur"})
        write_jsonl(
            processed / "generate" / f"{model}.jsonl",
            [
                Generation(
                    question_id=q.id,
                    model=model,
                    status="ok",
                    response=ANSWERS[q.language][MODELS.index(model)],
                )
                for q in questions
            ],
        )
    chunk = RetrievedChunk(
        chunk_id="raw:drops#1", document_id="raw:drops", kind="raw", text="Drops: 4 a day.", score=1
    )
    update = RetrievedChunk(
        chunk_id="update:1",
        document_id="update:1",
        kind="update",
        text=URDU_CHUNK,
        score=1,
        added_at=date(2024, 1, 15),
    )
    write_jsonl(
        processed / "index" / "retrieval.jsonl",
        [
            Retrieval(question_id=q.id, raw_chunks=[chunk], kb_update_chunks=[update])
            for q in questions
        ],
    )
    return root
