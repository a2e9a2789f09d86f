"""translate: a translate-test variant's inputs in English, read by its generate stage.

python -m parakh.stages.translate dataset=demo translator=dictionary_demo
python -m parakh.stages.translate dataset=demo translator=indictrans2 generation.variant=tt-it2

Writes, under `translate/<variant>/`, the questions as the model is asked them (English where
translated, each keeping its record), the chunks index retrieved for them in English, and a
per-language report; `parakh.translation.translate_test` says what is translated and how a
failure travels. Direct inference (`translator=none`) has nothing to translate.
"""

from __future__ import annotations

from collections import Counter
from contextlib import closing

from parakh.backends.cache import ResponseCache
from parakh.config import ParakhConfig, hydra_entry
from parakh.errors import ConfigError
from parakh.io import read_jsonl, write_json, write_jsonl
from parakh.project import resolve
from parakh.schema import Question, Retrieval
from parakh.stage_outputs import Layout, spec_path, translate_test_variant
from parakh.tracking.runspec import write_run_spec
from parakh.translation.translate_test import question_for_prompt, translate_inputs


def summary(questions: list[Question]) -> dict[str, dict[str, int]]:
    """Translation outcomes (ok / unchanged / error) per question language."""
    counts: dict[str, Counter[str]] = {}
    for q in questions:
        status = q.translation.status if q.translation else "direct"
        counts.setdefault(q.language, Counter())[status] += 1
    return {lang: dict(sorted(c.items())) for lang, c in sorted(counts.items())}


def main_task(cfg: ParakhConfig) -> None:
    if cfg.translator.kind == "none":
        raise ConfigError(
            "translator=none is direct inference: there is nothing to translate (its generate "
            "stage reads curate/questions.jsonl and index/retrieval.jsonl). Run the translate "
            "stage for a translate-test variant, e.g. translator=dictionary_demo"
        )
    layout = Layout.of(cfg)
    variant = translate_test_variant(cfg)
    questions = read_jsonl(layout.curated_questions, Question)
    retrievals = read_jsonl(layout.retrieval, Retrieval)
    with closing(ResponseCache(resolve(cfg.paths.cache))) as cache:
        translated, english = translate_inputs(cfg.translator, questions, retrievals, cache)
    out = layout.asked_questions(variant)
    write_json(
        out.with_name("report.json"),
        {"translator": cfg.translator.name, "variant": variant, "by_language": summary(translated)},
    )
    write_jsonl(layout.asked_retrieval(variant), english)
    write_jsonl(out, [question_for_prompt(q) for q in translated])
    write_run_spec(
        spec_path(out),
        stage="translate",
        config={"translator": cfg.translator.model_dump(), "variant": variant},
        inputs={"questions": layout.curated_questions, "retrieval": layout.retrieval},
    )
    errors = sum(q.translation is not None and q.translation.status == "error" for q in translated)
    print(
        f"translate ({cfg.translator.name}, {variant}): {len(translated)} questions, "
        f"{errors} translation errors -> {layout.translated(variant)}"
    )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
