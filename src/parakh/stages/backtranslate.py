"""back-translate: a translate-test run's English answers, in each question's answer language.

python -m parakh.stages.backtranslate dataset=demo model=smollm2 translator=dictionary_demo

Reads the English answers generate wrote to `pivot/<name>.jsonl` and writes
`generate/<name>.jsonl`, the file judge reads (`parakh.translation.translate_test.back_translate`
says what each row holds and when it is an error row). Direct inference (`translator=none`)
has no back-translation: its generate stage writes `generate/<name>.jsonl` itself.
"""

from __future__ import annotations

from collections import Counter
from contextlib import closing

from parakh.backends.cache import ResponseCache
from parakh.config import ParakhConfig, hydra_entry
from parakh.errors import ConfigError
from parakh.io import read_jsonl, write_jsonl
from parakh.project import resolve
from parakh.schema import Generation, Question
from parakh.stage_outputs import Layout, generation_name, spec_path, translate_test_variant
from parakh.tracking.runspec import write_run_spec
from parakh.translation.translate_test import back_translate_generations


def main_task(cfg: ParakhConfig) -> None:
    if cfg.translator.kind == "none":
        raise ConfigError(
            "translator=none is direct inference: there is no answer to back-translate (its "
            "generate stage writes generate/<model>.jsonl itself)"
        )
    layout = Layout.of(cfg)
    name = generation_name(cfg)
    variant = translate_test_variant(cfg)
    pivot = layout.pivot_generations(name)
    # The curated questions (answer language as asked) with the translate stage's records.
    records = {q.id: q.translation for q in read_jsonl(layout.asked_questions(variant), Question)}
    questions = [
        q.model_copy(update={"translation": records.get(q.id)})
        for q in read_jsonl(layout.curated_questions, Question)
    ]
    generations = read_jsonl(pivot, Generation)
    with closing(ResponseCache(resolve(cfg.paths.cache))) as cache:
        rows = back_translate_generations(cfg.translator, questions, generations, cache)
    out = layout.generations(name)
    write_jsonl(out, rows)
    write_run_spec(
        spec_path(out),
        stage="backtranslate",
        config={"translator": cfg.translator.model_dump(), "variant": variant},
        inputs={
            "questions": layout.curated_questions,
            "asked": layout.asked_questions(variant),
            "answers": pivot,
        },
    )
    status = Counter(g.translation.status if g.translation else "none" for g in rows)
    print(
        f"back-translate ({cfg.translator.name}) {name}: {len(rows)} answers, "
        f"{status['ok']} back-translated, {status['unchanged']} already in English, "
        f"{status['error']} errors -> {out}"
    )


main = hydra_entry(main_task)

if __name__ == "__main__":
    main()
