"""translate: translate-test inputs. With `translator=none` (default) questions pass through.

python -m parakh.stages.translate dataset=demo translator=none
python -m parakh.stages.translate dataset=demo translator=indictrans2

Any other translator puts each question (and its passages, if `translate_context`) into
English on `Question.translation`, leaving `text` as asked; `generate` then asks in English
and back-translates the answer. A question whose translation fails keeps the reason on its
row and its generation becomes an error row.
"""

from __future__ import annotations

from collections import Counter

from parakh.backends.cache import ResponseCache
from parakh.config import ParakhConfig, hydra_entry
from parakh.io import read_jsonl, write_json, write_jsonl
from parakh.layout import Layout, spec_path
from parakh.paths import resolve
from parakh.schema import Question
from parakh.tracking.runspec import write_run_spec
from parakh.translation.service import make_service
from parakh.translation.translate_test import translate_questions


def run(
    cfg: ParakhConfig, questions: list[Question], cache: ResponseCache | None = None
) -> list[Question]:
    """The questions as `generate` should read them: unchanged for `none`."""
    if cfg.translator.kind == "none":
        return questions
    service = make_service(cfg.translator, cache)
    try:
        return translate_questions(service, questions, cfg.translator.translate_context)
    finally:
        service.close()


def summary(questions: list[Question]) -> dict[str, dict[str, int]]:
    """Translation outcomes (ok / unchanged / error) per question language."""
    counts: dict[str, Counter[str]] = {}
    for q in questions:
        status = q.translation.status if q.translation else "direct"
        counts.setdefault(q.language, Counter())[status] += 1
    return {lang: dict(sorted(c.items())) for lang, c in sorted(counts.items())}


def main_task(cfg: ParakhConfig) -> None:
    layout = Layout.of(cfg)
    questions = read_jsonl(layout.curated_questions, Question)
    if cfg.translator.kind == "none":
        out = run(cfg, questions)
    else:
        cache = ResponseCache(resolve(cfg.paths.cache))
        try:
            out = run(cfg, questions, cache)
        finally:
            cache.close()
        write_json(
            layout.translated_questions.with_name("report.json"),
            {"translator": cfg.translator.name, "by_language": summary(out)},
        )
    write_jsonl(layout.translated_questions, out)
    write_run_spec(
        spec_path(layout.translated_questions),
        stage="translate",
        config={"translator": cfg.translator.model_dump()},
        inputs={"questions": layout.curated_questions},
    )
    message = f"translate ({cfg.translator.name}): {len(out)} questions"
    if cfg.translator.kind != "none":
        errors = sum(q.translation is not None and q.translation.status == "error" for q in out)
        message += f", {errors} translation errors"
    print(f"{message} -> {layout.translated_questions}")


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
