"""curate: load a dataset through its adapter, label languages, dedupe, validate, write.

python -m parakh.stages.curate dataset=demo
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from parakh.config import ParakhConfig, hydra_entry
from parakh.datasets import LoadedDataset, get_adapter
from parakh.errors import InputError
from parakh.io import write_json, write_jsonl
from parakh.layout import Layout, spec_path
from parakh.paths import resolve
from parakh.schema import KBDocument, Question
from parakh.text.langid import label_language
from parakh.tracking.runspec import write_run_spec


@dataclass
class Curated:
    questions: list[Question]
    documents: list[KBDocument]
    report: dict[str, Any] = field(default_factory=dict)


def label(question: Question) -> Question:
    """Fill script, romanized, code-mixed and matrix language; keep where each label came from."""
    detected = label_language(question.text)
    sources = dict(question.label_source)
    updates: dict[str, Any] = {}
    for name in ("script", "matrix_language"):
        if getattr(question, name) is None:
            updates[name] = getattr(detected, name)
            sources[name] = "detected"
    for name in ("romanized", "code_mixed"):
        if name not in sources:
            updates[name] = getattr(detected, name)
            sources[name] = "detected"
    sources.setdefault("language", "dataset")
    return question.model_copy(update={**updates, "label_source": sources})


def dedupe(questions: list[Question]) -> tuple[list[Question], Counter[str]]:
    """Drop exact duplicate texts (first kept); the same id with other content is an error."""
    dropped: Counter[str] = Counter()
    by_id: dict[str, Question] = {}
    seen_text: set[tuple[str, str]] = set()
    kept = []
    for q in questions:
        if q.id in by_id:
            if by_id[q.id] != q:
                raise InputError(
                    "questions", "duplicate id with different content", field=f"id={q.id}"
                )
            dropped["duplicate_id"] += 1
            continue
        by_id[q.id] = q
        key = (q.language, " ".join(q.text.split()).casefold())
        if key in seen_text:
            dropped["duplicate_text"] += 1
            continue
        seen_text.add(key)
        kept.append(q)
    return kept, dropped


def run(cfg: ParakhConfig, loaded: LoadedDataset) -> Curated:
    questions, dropped = dedupe(loaded.questions)
    if cfg.dataset.languages:
        before = len(questions)
        questions = [q for q in questions if q.language in cfg.dataset.languages]
        dropped["language_not_selected"] += before - len(questions)
    if cfg.dataset.limit is not None:
        dropped["over_limit"] += max(0, len(questions) - cfg.dataset.limit)
        questions = questions[: cfg.dataset.limit]
    questions = [label(q) for q in questions]
    report = {
        "dataset": cfg.dataset.name,
        "rows_in": len(loaded.questions),
        "rows_out": len(questions),
        "dropped": dict(sorted(dropped.items())),
        "languages": dict(sorted(Counter(q.language for q in questions).items())),
        "categories": dict(sorted(Counter(c for q in questions for c in q.categories).items())),
        "romanized": sum(q.romanized for q in questions),
        "code_mixed": sum(q.code_mixed for q in questions),
        "kb_documents": dict(sorted(Counter(d.kind for d in loaded.documents).items())),
    }
    return Curated(questions=questions, documents=loaded.documents, report=report)


def main_task(cfg: ParakhConfig) -> None:
    layout = Layout.of(cfg)
    source = resolve(cfg.dataset.path)
    curated = run(cfg, get_adapter(cfg.dataset.adapter)(source))
    write_jsonl(layout.curated_questions, curated.questions)
    write_jsonl(layout.curated_kb, curated.documents)
    write_json(layout.curation_report, curated.report)
    write_run_spec(
        spec_path(layout.curated_questions),
        stage="curate",
        config={"dataset": cfg.dataset.model_dump()},
        inputs={"source": source},
    )
    print(
        f"curate: {curated.report['rows_out']} questions, {len(curated.documents)} KB documents "
        f"-> {layout.curated_questions.parent}"
    )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
